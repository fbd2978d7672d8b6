import Foundation
import Testing
import Defaults
import PropertyList

/// The store tells the app's loop when it next has work, so the loop needs no beat of its own.
@Suite("When the defaults store next needs the loop")
struct DeadlineTests {
    @Test func aWatchedLocalFolderWithNothingUnsavedNeedsNoWakeUp() throws {
        try withConfigHome { home in
            let store = makeStore(home)
            #expect(store.wakeupFileDescriptor != nil, "inotify watches the folder: the loop polls its descriptor")
            #expect(store.nextDeadline == nil)
        }
    }

    @Test func anUnsavedChangeIsDueOnceItHasSettled() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = DefaultsStore.standard(environment: ["XDG_CONFIG_HOME": home.path],
                                               options: .init(coalescingDelay: 0.3, maximumDelay: 2, clock: { clock.now }))
            store.set(1, forKey: "a")
            #expect(store.nextDeadline == clock.now + 0.3)
            clock.now += 0.25
            store.set(2, forKey: "a")
            #expect(store.nextDeadline == clock.now + 0.3, "each change pushes the write back")
            clock.now += 0.5
            store.flushIfDue()
            #expect(!store.hasUnsavedChanges)
            #expect(store.nextDeadline == nil, "written: nothing more is due")
        }
    }

    @Test func changesThatKeepComingAreDueByTheMaximumDelay() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = DefaultsStore.standard(environment: ["XDG_CONFIG_HOME": home.path],
                                               options: .init(coalescingDelay: 0.3, maximumDelay: 2, clock: { clock.now }))
            let first = clock.now
            for _ in 0..<19 {
                store.set(Int(clock.now), forKey: "slider")
                clock.now += 0.1
            }
            #expect(store.nextDeadline == first + 2)
        }
    }

    @Test func withoutInotifyTheFileIsLookedAtOnItsInterval() throws {
        try withConfigHome { home in
            let clock = TestClock()
            let store = DefaultsStore.standard(environment: ["XDG_CONFIG_HOME": home.path],
                                               options: .init(usesInotify: false, safetyPollInterval: 2, clock: { clock.now }))
            #expect(store.wakeupFileDescriptor == nil)
            #expect(store.nextDeadline == clock.now + 2)
            clock.now += 2
            store.processExternalChanges()
            #expect(store.nextDeadline == clock.now + 2, "the next look, one interval on")
        }
    }
}
