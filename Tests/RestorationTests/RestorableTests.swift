import Testing
import Restoration

@Suite struct RestorableTests {
    final class Node: Restorable { var restorationIdentifier: String? = "Root" }
    @Test func identifierIsVisibleThroughTheProtocol() {
        let node: any Restorable = Node()
        #expect(node.restorationIdentifier == "Root")
    }
}
