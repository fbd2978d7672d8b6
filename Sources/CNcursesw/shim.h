#ifndef WONDERLAND_CNCURSESW_SHIM_H
#define WONDERLAND_CNCURSESW_SHIM_H

// Wide-character curses: without these the cchar_t / wide functions are not declared.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <stdio.h>
#include <string.h>

// Swift 6 rejects ncurses' mutable C globals as unsafe shared state, and cannot see function-like
// macros; these accessors are the only way the Terminal module reaches them.
static inline WINDOW *wl_stdscr(void) { return stdscr; }
static inline int wl_lines(void) { return LINES; }
static inline int wl_cols(void) { return COLS; }
static inline int wl_colors(void) { return COLORS; }
static inline int wl_color_pairs(void) { return COLOR_PAIRS; }
static inline int wl_key_code_yes(void) { return KEY_CODE_YES; }
static inline int wl_key_f(int n) { return KEY_F(n); }
static inline attr_t wl_attr_bold(void) { return A_BOLD; }
static inline attr_t wl_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t wl_attr_reverse(void) { return A_REVERSE; }
static inline attr_t wl_attr_dim(void) { return A_DIM; }
static inline attr_t wl_attr_normal(void) { return A_NORMAL; }
static inline mmask_t wl_mouse_mask_all(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t wl_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t wl_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t wl_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t wl_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t wl_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t wl_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t wl_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline int wl_ccharw_max(void) { return CCHARW_MAX; }

// True when terminfo knows `name`. setupterm with a status pointer reports an unknown terminal
// instead of printing and exiting the way initscr would.
static inline int wl_terminal_is_known(const char *name) {
    int status = 0;
    if (setupterm(name, 1, &status) != OK) return 0;
    del_curterm(cur_term);
    return 1;
}

// newterm on the process's own stdin/stdout (C's stdio globals are off limits to Swift 6).
static inline SCREEN *wl_newterm(const char *name) { return newterm(name, stdout, stdin); }

static inline int wl_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

#endif
