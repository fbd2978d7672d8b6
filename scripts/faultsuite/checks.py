"""The checks many faults end with."""


def files_intact(suite, scenario, place):
    """Nothing lost: both files read, no write was left half-done, nothing was moved aside."""
    report = suite.report
    report.expect(scenario, "archive readable (plist lint, state show)", place.archive_readable())
    report.expect(scenario, "defaults.plist readable (plist lint)", place.defaults_readable())
    temporaries = place.temporaries()
    report.expect(scenario, "no temporary files left", not temporaries, " ".join(temporaries))
    moved = place.moved_aside()
    report.expect(scenario, "nothing moved aside as corrupt", not moved, " ".join(moved))


def same_frame(suite, name, expected, actual):
    """Two frames equal; when not, both are kept in the output folder to compare."""
    if expected == actual:
        return True, ""
    suite.keep(f"{name}-expected", expected)
    suite.keep(f"{name}-actual", actual)
    return False, f"frames differ ({suite.out_label}/{name}-{{expected,actual}}.txt)"
