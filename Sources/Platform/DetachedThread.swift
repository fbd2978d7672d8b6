#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for work that blocks for long (a loop waiting on a backend), named so a
/// debugger or `top -H` shows what it is. It starts at once and ends when `body` returns.
public final class DetachedThread: Sendable {
    /// At most 15 bytes reach the system, as Linux allows.
    public let name: String

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts `body` on a new thread; traps when the system cannot make one, as Foundation's
    /// `Thread.start()` did.
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        self.name = name
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, &attributes, { raw in
            #if canImport(Glibc)
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            // pthread_setname_np is not visible from Swift here; the kernel takes the name here too.
            let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            if comm >= 0 {
                let bytes = Array(start.name.utf8.prefix(15))
                _ = write(comm, bytes, bytes.count)
                close(comm)
            }
            #else
            let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
            pthread_setname_np(start.name)
            #endif
            start.body()
            return nil
        }, start)
        precondition(result == 0, "cannot start the thread \(name): \(String(cString: strerror(result)))")
    }
}
