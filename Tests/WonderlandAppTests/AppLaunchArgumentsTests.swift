import Testing
import WonderlandApp

/// The command lines that start the app without ArgumentParser, and those left to it.
@Suite("Launch arguments recognised without ArgumentParser")
struct AppLaunchArgumentsTests {
    @Test func thePlainLaunchesAreRecognised() {
        #expect(AppLaunchArguments.recognise([]) == AppLaunchArguments())
        #expect(AppLaunchArguments.recognise(["--fresh"]) == AppLaunchArguments(fresh: true))
        #expect(AppLaunchArguments.recognise(["--exit-after-first-frame", "--fresh"]) == AppLaunchArguments(fresh: true, exitAfterFirstFrame: true))
        #expect(AppLaunchArguments.recognise(["--location", "48.85,2.35", "--book", "/tmp/a.txt"])
                == AppLaunchArguments(location: "48.85,2.35", book: "/tmp/a.txt"))
    }

    @Test func aSouthernOrWesternPlaceIsAValueNotAnOption() {
        #expect(AppLaunchArguments.recognise(["--location", "-33.87,151.21"]) == AppLaunchArguments(location: "-33.87,151.21"))
        #expect(AppLaunchArguments.recognise(["--location", "-.5,1"]) == nil, "an odd spelling is ArgumentParser's to judge")
    }

    @Test func everythingElseIsLeftToArgumentParser() {
        for arguments in [["--help"], ["-h"], ["--version"], ["settings"], ["defaults", "read"], ["--book=/tmp/a.txt"],
                          ["--location"], ["--book"], ["--book", ""], ["--book", "--fresh"], ["--fresh", "--fresh"],
                          ["--location", "1,2", "--location", "3,4"], ["--frsh"], ["--generate-manual"], ["extra"]] {
            #expect(AppLaunchArguments.recognise(arguments) == nil, "\(arguments)")
        }
    }
}
