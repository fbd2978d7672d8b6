/* The floor for wonderland's launch: what any ncurses program pays to show the app's tab bar.
 * It sets up the terminal as the app does (locale, newterm on the alternate screen, colours,
 * cbreak, no echo, the cursor hidden), draws the same tab bar on the top row and the same
 * hint bar on the bottom one, refreshes once and then waits for a key, as an app waits for
 * its user. The launch benchmark times exec to the last byte of this frame. */
#include <curses.h>
#include <locale.h>

static void label(int y, int x, const char *text, int pair, attr_t attributes) {
    attron(COLOR_PAIR(pair) | attributes);
    mvaddstr(y, x, text);
    attroff(COLOR_PAIR(pair) | attributes);
}

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_WHITE, COLOR_BLUE);
        init_pair(2, COLOR_BLACK, COLOR_WHITE);
    }
    cbreak();
    noecho();
    nonl();
    curs_set(0);

    attron(COLOR_PAIR(1));
    mvhline(0, 0, ' ', COLS);
    attroff(COLOR_PAIR(1));
    label(0, 1, " 1 Map ", 2, A_BOLD);
    label(0, 9, " 2 Characters ", 1, A_NORMAL);
    label(0, 24, " 3 Book ", 1, A_NORMAL);
    attron(A_REVERSE);
    mvaddstr(LINES - 1, 0, " Pan  +/- Zoom  / Find a place  r Remember this place  ? Help  q Quit");
    attroff(A_REVERSE);
    refresh();

    getch();
    endwin();
    return 0;
}
