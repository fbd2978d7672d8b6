// The floor a Swift program pays to show the app's tab bar: the same curses calls as floor.c,
// linked as the app is (one static executable). Built with -D ESSENTIALS it also starts
// FoundationEssentials the way the app does before its first frame (a URL, the environment,
// a Data), so the two builds split the gap between C and the app into the language's share,
// the library's share and the app's own work.
import CNcursesw
#if canImport(Glibc)
import Glibc
#endif
#if ESSENTIALS
import FoundationEssentials
#endif

func label(_ y: Int32, _ x: Int32, _ text: String, pair: Int32, attributes: attr_t) {
    let attribute = attr_t(COLOR_PAIR(pair)) | attributes
    wattr_on(wl_stdscr(), attribute, nil)
    mvwaddstr(wl_stdscr(), y, x, text)
    wattr_off(wl_stdscr(), attribute, nil)
}

setlocale(LC_ALL, "")
#if ESSENTIALS
let home = URL(fileURLWithPath: ProcessInfo.processInfo.environment["HOME"] ?? "/")
_ = Data(home.path.utf8)
#endif
initscr()
if has_colors() {
    start_color()
    use_default_colors()
    init_pair(1, Int16(COLOR_WHITE), Int16(COLOR_BLUE))
    init_pair(2, Int16(COLOR_BLACK), Int16(COLOR_WHITE))
}
cbreak()
noecho()
nonl()
curs_set(0)

wattr_on(wl_stdscr(), attr_t(COLOR_PAIR(1)), nil)
mvwhline(wl_stdscr(), 0, 0, chtype(UInt8(ascii: " ")), wl_cols())
wattr_off(wl_stdscr(), attr_t(COLOR_PAIR(1)), nil)
label(0, 1, " 1 Map ", pair: 2, attributes: wl_attr_bold())
label(0, 9, " 2 Characters ", pair: 1, attributes: wl_attr_normal())
label(0, 24, " 3 Book ", pair: 1, attributes: wl_attr_normal())
wattr_on(wl_stdscr(), wl_attr_reverse(), nil)
mvwaddstr(wl_stdscr(), wl_lines() - 1, 0, " Pan  +/- Zoom  / Find a place  r Remember this place  ? Help  q Quit")
wattr_off(wl_stdscr(), wl_attr_reverse(), nil)
wrefresh(wl_stdscr())

wgetch(wl_stdscr())
endwin()
