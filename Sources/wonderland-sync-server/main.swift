import Foundation

// The sync server's helper: started by wonderland when a Sync Server is set, it runs the
// PostgreSQL backend for it and talks to it over its stdin and stdout (SyncHelperFrames). It
// ends when its stdin closes: the app quit, or died.

// The app gone while an answer is written: the write fails, and the helper ends on its own terms.
signal(SIGPIPE, SIG_IGN)
// The terminal's signals reach the whole process group; they are the app's to act on. Closing
// the terminal must not end the helper before the app's last sync on its way out: it ends when
// the app closes the pipe.
for number in [SIGHUP, SIGINT, SIGQUIT] { signal(number, SIG_IGN) }
exit(SyncHelperService(input: STDIN_FILENO, output: STDOUT_FILENO).run())
