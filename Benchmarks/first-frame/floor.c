/* The floor for any ncurses app's start-up: initialise, draw an empty frame, leave. */
#include <curses.h>
#include <locale.h>

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    refresh();
    endwin();
    return 0;
}
