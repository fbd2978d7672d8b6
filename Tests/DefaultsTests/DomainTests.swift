import Foundation
import Testing
import Defaults
import PropertyList

@Suite struct DomainTests {
    @Test func argumentBeatsPersistentBeatsRegistration() {
        withConfigHome { home in
            let store = makeStore(home, arguments: ["A": .string("arg")], watch: false)
            store.register(defaults: ["A": .string("reg"), "B": .string("reg"), "C": .string("reg")])
            store.set(.string("saved"), forKey: "A")
            store.set(.string("saved"), forKey: "B")
            #expect(store.object(forKey: "A") == .string("arg"))
            #expect(store.object(forKey: "B") == .string("saved"))
            #expect(store.object(forKey: "C") == .string("reg"))
            #expect(store.object(forKey: "D") == nil)
        }
    }

    @Test func missingKeyIsNilForObjectButZeroForTypedGetters() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            #expect(store.object(forKey: "none") == nil)
            #expect(store.bool(forKey: "none") == false)
            #expect(store.integer(forKey: "none") == 0)
            #expect(store.double(forKey: "none") == 0)
            #expect(store.string(forKey: "none") == "")
            #expect(store.data(forKey: "none") == Data())
            #expect(store.date(forKey: "none") == nil)
            #expect(store.array(forKey: "none") == [])
            #expect(store.dictionary(forKey: "none") == [:])
        }
    }

    @Test func typedGettersFallBackToTheRegisteredDefault() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            store.register(defaults: ["HPFollowHeading": .boolean(true), "HPMapType": .integer(1)])
            #expect(store.bool(forKey: "HPFollowHeading"))
            #expect(store.integer(forKey: "HPMapType") == 1)
            store.set(false, forKey: "HPFollowHeading")
            #expect(store.bool(forKey: "HPFollowHeading") == false)
        }
    }

    @Test func wrongTypeGivesTheRegisteredDefaultThenZero() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            store.register(defaults: ["n": .integer(7)])
            store.set(.date(Date(timeIntervalSince1970: 0)), forKey: "n")
            store.set(.array([]), forKey: "m")
            #expect(store.integer(forKey: "n") == 7)
            #expect(store.integer(forKey: "m") == 0)
            #expect(store.string(forKey: "m") == "")
            #expect(store.bool(forKey: "m") == false)
            #expect(store.dictionary(forKey: "m") == [:])
            store.set(.string("not a number"), forKey: "n")
            #expect(store.integer(forKey: "n") == 7)
        }
    }

    @Test func stringsConvertLikeNSUserDefaults() {
        withConfigHome { home in
            let store = makeStore(home, arguments: [
                "i": .string("2"), "f": .string("2.5"), "yes": .string("YES"), "true": .string("true"),
                "one": .string("1"), "no": .string("NO"), "d": .string("2026-11-22T19:30:00Z"),
            ], watch: false)
            #expect(store.integer(forKey: "i") == 2)
            #expect(store.double(forKey: "i") == 2)
            #expect(store.double(forKey: "f") == 2.5)
            #expect(store.integer(forKey: "f") == 2)
            #expect(store.bool(forKey: "yes"))
            #expect(store.bool(forKey: "true"))
            #expect(store.bool(forKey: "one"))
            #expect(store.bool(forKey: "no") == false)
            #expect(store.date(forKey: "d") == Date(timeIntervalSince1970: 1_795_375_800))
        }
    }

    @Test func numbersConvertToEachOtherAndToText() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            store.set(2, forKey: "i")
            store.set(2.5, forKey: "r")
            store.set(true, forKey: "b")
            #expect(store.string(forKey: "i") == "2")
            #expect(store.string(forKey: "r") == "2.5")
            #expect(store.string(forKey: "b") == "1")
            #expect(store.bool(forKey: "i"))
            #expect(store.integer(forKey: "b") == 1)
            #expect(store.integer(forKey: "r") == 2)
            #expect(store.double(forKey: "i") == 2)
        }
    }

    @Test func typedSettersStoreTheMatchingValues() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            let date = Date(timeIntervalSince1970: 1_000_000)
            store.set("x", forKey: "s")
            store.set(Data([1, 2]), forKey: "data")
            store.set(date, forKey: "date")
            store.set([.string("a")], forKey: "array")
            store.set(["k": .integer(1)], forKey: "dict")
            #expect(store.object(forKey: "s") == .string("x"))
            #expect(store.data(forKey: "data") == Data([1, 2]))
            #expect(store.date(forKey: "date") == date)
            #expect(store.array(forKey: "array") == [.string("a")])
            #expect(store.dictionary(forKey: "dict") == ["k": .integer(1)])
        }
    }

    @Test func removeRevealsTheRegisteredDefault() {
        withConfigHome { home in
            let store = makeStore(home, watch: false)
            store.register(defaults: ["k": .integer(1)])
            store.set(5, forKey: "k")
            store.removeObject(forKey: "k")
            #expect(store.object(forKey: "k") == .integer(1))
            #expect(store.persistentDomain["k"] == nil)
        }
    }

    @Test func dictionaryRepresentationMergesTheDomainsInOrder() {
        withConfigHome { home in
            let store = makeStore(home, arguments: ["a": .string("arg")], watch: false)
            store.register(defaults: ["a": .integer(0), "b": .integer(0), "c": .integer(0)])
            store.set(1, forKey: "b")
            store.set(1, forKey: "d")
            #expect(store.dictionaryRepresentation() == [
                "a": .string("arg"), "b": .integer(1), "c": .integer(0), "d": .integer(1),
            ])
        }
    }

    @Test func observersHearLocalChangesOfTheMergedValueOnly() {
        withConfigHome { home in
            let store = makeStore(home, arguments: ["arg": .string("x")], watch: false)
            let log = ChangeLog(store)
            store.set(1, forKey: "k")
            store.set(1, forKey: "k")  // same value: no news
            store.set(2, forKey: "arg")  // hidden by the argument domain: no news
            store.register(defaults: ["k": .integer(5), "r": .integer(5)])  // only r is visible
            #expect(log.batches == [["k"], ["r"]])
            log.token = nil
            store.set(3, forKey: "k")
            #expect(log.batches.count == 2)
        }
    }
}

@Suite struct ArgumentDomainTests {
    @Test func splitsKeyValuePairsAndKeepsTheRest() {
        let (remaining, domain) = ArgumentDomain.split(["-HPMapType", "2", "--exit-after-first-frame", "-Offset", "-5"])
        #expect(remaining == ["--exit-after-first-frame"])
        #expect(domain == ["HPMapType": .string("2"), "Offset": .string("-5")])
    }

    @Test func theProgramsOwnOptionsKeepTheirValuesAndTheScanGoesOn() {
        let arguments = ["--location", "-33.87,151.21", "-HPMapType", "2", "--book", "alice.txt", "-WLTextWidth", "90"]
        let (remaining, domain) = ArgumentDomain.split(arguments, optionsWithValues: ["--location", "--book"])
        #expect(remaining == ["--location", "-33.87,151.21", "--book", "alice.txt"])
        #expect(domain == ["HPMapType": .string("2"), "WLTextWidth": .string("90")])
        // Without being told, a value ends the scan (it could be a subcommand).
        #expect(ArgumentDomain.split(["--book", "alice.txt", "-HPMapType", "2"]).domain.isEmpty)
    }

    @Test func leavesShortOptionsSubcommandsAndTheirFlagsAlone() {
        #expect(ArgumentDomain.split(["-h"]).remaining == ["-h"])
        #expect(ArgumentDomain.split(["-1x", "y"]).remaining == ["-1x", "y"])
        let command = ["defaults", "write", "K", "-int", "5"]
        #expect(ArgumentDomain.split(command).remaining == command)
        #expect(ArgumentDomain.split(command).domain.isEmpty)
        #expect(ArgumentDomain.split(["--", "-Key", "v"]).remaining == ["--", "-Key", "v"])
        #expect(ArgumentDomain.split(["-Key"]).remaining == ["-Key"])
    }

    @Test func argumentValuesAreReadThroughTheTypedGetters() {
        withConfigHome { home in
            let store = makeStore(home, arguments: ArgumentDomain.split(["-HPMapType", "2"]).domain, watch: false)
            #expect(store.integer(forKey: "HPMapType") == 2)
            try? store.flush()
            #expect(!FileManager.default.fileExists(atPath: defaultsFile(in: home).path))
        }
    }
}
