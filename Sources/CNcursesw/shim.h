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
#include <stdlib.h>
#include <termios.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
static inline int wl_ccharw_max(void) { return CCHARW_MAX; }

// True when the current terminal's terminfo entry has mouse reports (kmous), as curses decides.
static inline int wl_has_mouse(void) {
    const char *mouse = tigetstr("kmous");
    return mouse != NULL && mouse != (const char *)-1;
}

// Appends terminfo string `capability` to out (padding such as $<5> removed: there is no
// tputs in a signal handler). Returns the new length.
static inline int wl_append_capability(const char *capability, char *out, int used, int capacity) {
    const char *value = tigetstr(capability);
    if (value == NULL || value == (const char *)-1) return used;
    for (const char *p = value; *p != 0 && used < capacity; p++) {
        if (p[0] == '$' && p[1] == '<') {
            const char *end = strchr(p, '>');
            if (end != NULL) { p = end; continue; }
        }
        out[used++] = *p;
    }
    return used;
}

// True when TERM names xterm or a terminal that calls itself xterm-something: those are asked
// to send Alt as an Esc prefix (metaSendsEscape, mode 1036) while the app runs.
static inline int wl_term_is_xterm_like(const char *term) {
    return term != NULL && strncmp(term, "xterm", 5) == 0;
}

// The bytes that give the current terminal back to the shell when the process dies without
// curses' help: CAN first (it ends an escape sequence curses may have been half-way through
// writing), mouse reports off (when the app turned them on), bracketed paste off, plain
// attributes, normal cursor and keys, the main screen. Without an alternate screen the cursor
// goes to a fresh line instead. Returns the length written to out.
static inline int wl_write_reset_sequence(const char *name, char *out, int capacity) {
    if (capacity < 1) return 0;
    int used = 0;
    out[used++] = 0x18;
    if (wl_has_mouse()) {
        const char *off = "\033[?1006l\033[?1003l\033[?1002l\033[?1000l";
        for (const char *p = off; *p != 0 && used < capacity; p++) out[used++] = *p;
    }
    // Bracketed paste off: a terminal left in it wraps every later paste into the shell in
    // markers the shell may not know.
    for (const char *p = "\033[?2004l"; *p != 0 && used < capacity; p++) out[used++] = *p;
    used = wl_append_capability("sgr0", out, used, capacity);
    used = wl_append_capability("cnorm", out, used, capacity);
    used = wl_append_capability("rmkx", out, used, capacity);
    // xterm's metaSendsEscape as it was before the app saved and set it (XTRESTORE); a
    // terminal that does not know the request ignores it.
    if (wl_term_is_xterm_like(name)) {
        for (const char *p = "\033[?1036r"; *p != 0 && used < capacity; p++) out[used++] = *p;
    }
    int before = used;
    used = wl_append_capability("rmcup", out, used, capacity);
    if (used == before) {
        for (const char *p = "\r\n"; *p != 0 && used < capacity; p++) out[used++] = *p;
    }
    return used;
}

// What keeps terminal `name` from showing the app, checked before curses takes the screen;
// for a usable one, also the bytes that give it back (wl_write_reset_sequence) in reset, their
// length in reset_length. One read of the terminfo entry serves both (newterm reads its own).
// setupterm with a status pointer reports an unknown terminal instead of printing and exiting
// the way initscr would; a generic type (dumb) or a hardcopy one has no cursor addressing.
#define WL_TERMINAL_USABLE 0
#define WL_TERMINAL_UNKNOWN 1
#define WL_TERMINAL_HARDCOPY 2
#define WL_TERMINAL_NO_CURSOR_ADDRESSING 3
static inline int wl_terminal_problem(const char *name, char *reset, int capacity, int *reset_length) {
    int status = 0;
    *reset_length = 0;
    if (setupterm(name, 1, &status) != OK) return WL_TERMINAL_UNKNOWN;
    const char *address = tigetstr("cup");
    int problem = WL_TERMINAL_USABLE;
    if (tigetflag("hc") > 0) problem = WL_TERMINAL_HARDCOPY;
    else if (tigetflag("gn") > 0 || address == NULL || address == (const char *)-1) problem = WL_TERMINAL_NO_CURSOR_ADDRESSING;
    if (problem == WL_TERMINAL_USABLE) *reset_length = wl_write_reset_sequence(name, reset, capacity);
    del_curterm(cur_term);
    return problem;
}

// Loads the terminfo entry of terminal `name` as the current one, without taking the screen;
// 1 when it was found. Only for reading an entry while curses is not running.
static inline int wl_load_terminfo(const char *name) {
    int status = 0;
    return setupterm(name, 1, &status) == OK ? 1 : 0;
}
static inline void wl_unload_terminfo(void) { del_curterm(cur_term); }

// newterm on the process's own stdin/stdout (C's stdio globals are off limits to Swift 6).
static inline SCREEN *wl_newterm(const char *name) { return newterm(name, stdout, stdin); }

// Until a program's first endwin(), ncurses (6.4) flushes its output at every cursor movement,
// so each frame reached the terminal one line per write(): two dozen writes for a full frame,
// drawn by the terminal as it came. One endwin() whose bytes go to /dev/null ends that state
// without the terminal seeing it leave the alternate screen (the tty mode it would restore
// is set on /dev/null, which fails and changes nothing). The refresh here enters the alternate
// screen again, still blank, before colours are started, so it does not reset the terminal's
// palette as a refresh after endwin() does once colours are on; every frame after goes out in
// as few writes as ncurses' buffer allows. Call it straight after newterm. Returns 0 when
// /dev/null or a duplicate of stdout could not be had, and nothing was done.
static inline int wl_settle_output(void) {
    int saved = dup(STDOUT_FILENO);
    if (saved < 0) return 0;
    int nowhere = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (nowhere < 0) { close(saved); return 0; }
    fflush(stdout);
    int done = dup2(nowhere, STDOUT_FILENO) >= 0;
    if (done) {
        endwin();
        fflush(stdout);
        while (dup2(saved, STDOUT_FILENO) < 0 && errno == EINTR) {}
        doupdate();
    }
    close(nowhere);
    close(saved);
    return done;
}

// What the locale's charset is, for reading typed text: 0 UTF-8, 1 plain ASCII (C, POSIX),
// 2 another charset of one byte a character, 3 another multibyte charset.
static inline int wl_input_charset_kind(void) {
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL) return 1;
    if (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0) return 0;
    if (strcmp(codeset, "ANSI_X3.4-1968") == 0 || strcmp(codeset, "ASCII") == 0 || strcmp(codeset, "US-ASCII") == 0) return 1;
    return MB_CUR_MAX == 1 ? 2 : 3;
}

// The character byte `byte` is in the locale's single-byte charset, or -1.
static inline long wl_locale_byte_scalar(unsigned char byte) {
    wchar_t wide = 0;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    char text = (char)byte;
    size_t length = mbrtowc(&wide, &text, 1, &state);
    if (length != 1) return -1;
    return (long)wide;
}

// Flow control off (Ctrl-S and Ctrl-Q become keys, as in vim and less), then the modes curses
// set taken as its program mode, so a refresh after endwin puts them back as they are now.
static inline void wl_flow_control_off(void) {
    struct termios modes;
    if (tcgetattr(STDIN_FILENO, &modes) == 0) {
        modes.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
        while (tcsetattr(STDIN_FILENO, TCSANOW, &modes) != 0 && errno == EINTR) {}
    }
    def_prog_mode();
}

static inline int wl_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// A file in memory (Linux): where standard error goes while curses has the screen. glibc has
// it, but its header hides it from Swift's Glibc module.
extern int memfd_create(const char *name, unsigned int flags);
static inline int wl_memory_file(const char *name) { return memfd_create(name, 1 /* MFD_CLOEXEC */); }

#endif
