import Foundation
import TestPrerequisites

extension Prerequisite {
    static let python3 = program("python3", remedy: "scripts/setup installs it")
}
