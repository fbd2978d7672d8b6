#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a thread of its own, for work that blocks for long (a socket reader) or must
/// not queue behind other work; the thread ends when `body` returns and nobody joins it.
/// `name` shows in debuggers and `top -H` (Linux keeps its first 15 bytes); `stackSize` in
/// bytes, nil for the system's default. False when the system would not make the thread.
@discardableResult
public func startThread(name: String? = nil, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
    let start = ThreadStart(name: name.map(threadName), body: body)
    let context = Unmanaged.passRetained(start).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    guard pthread_create(&thread, &attributes, { runThread($0) }, context) == 0 else {
        Unmanaged<ThreadStart>.fromOpaque(context).release()
        return false
    }
    return true
}

private final class ThreadStart {
    let name: String?
    let body: @Sendable () -> Void
    init(name: String?, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}

private func runThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let start = Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue()
    if let name = start.name { nameCurrentThread(name) }
    start.body()
    return nil
}

private func nameCurrentThread(_ name: String) {
    #if canImport(Glibc)
    // Glibc's module leaves out pthread_setname_np; the kernel takes the name through /proc.
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = Array(name.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    #else
    _ = pthread_setname_np(name)
    #endif
}

/// The longest whole-character prefix that fits the 15 bytes Linux keeps of a thread's name.
private func threadName(_ name: String) -> String {
    var kept = ""
    for character in name {
        guard kept.utf8.count + character.utf8.count <= 15 else { break }
        kept.append(character)
    }
    return kept
}
