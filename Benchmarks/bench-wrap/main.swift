// `bench-wrap FILE`: one whole process that maps FILE and word-wraps it to 78 columns with the
// reader's layout (display widths, paragraph reflow), printing the line count: what
// scripts/bench-book runs against `fold -s -w 78 FILE`, both as whole processes. Built like the
// app (FoundationEssentials only, one static executable in release), so its start-up is the
// app's and not full Foundation's.
import BookFront
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = "bench-wrap: \(message)\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail("usage: bench-wrap FILE") }
let descriptor = open(arguments[1], O_RDONLY | O_CLOEXEC)
guard descriptor >= 0 else { fail("cannot open \(arguments[1])") }
var status = stat()
guard fstat(descriptor, &status) == 0, status.st_size > 0 else { fail("\(arguments[1]) is empty or unreadable") }
let size = Int(status.st_size)
guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { fail("cannot map \(arguments[1])") }
let bytes = Data(bytesNoCopy: address, count: size, deallocator: .none)
guard let count = LineCount.count(text: BookText(bytes: bytes, isMapped: true), width: 78) else { fail("the count was interrupted") }
print(count.totalLines)
