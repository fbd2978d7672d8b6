"""The start of every fault made with a mount: a tmpfs the fault controls, a place whose folders
live on it, and the app's first launch there."""
import os

from .checks import same_frame


def first_launch_on_tmpfs(suite, scenario, session, mount_name, size, mount_check, folders):
    """Mounts a tmpfs of SIZE at work/MOUNT_NAME, makes the place SESSION with FOLDERS(mount)
    (its `state` and `config` arguments), opens a 120×24 window and launches the app ("first").
    Returns (mount, place, pane), or None once the failed step is recorded."""
    mount, pane = os.path.join(suite.work, mount_name), f"{session}:0.0"
    error = suite.mounts.tmpfs(mount, size)
    if error:
        suite.report.record(scenario, mount_check, False, f"mount -t tmpfs failed: {error}")
        return None
    place = suite.place(session, **folders(mount))
    suite.tmux.new_window(session, 120, 24)
    place.launch(suite.tmux, pane, "first")
    if not suite.tmux.wait_frame(pane):
        suite.report.record(scenario, "first launch draws", False)
        return None
    return mount, place, pane


def relaunch_writable(suite, scenario, session, mount, place, before, check):
    """The mount writable again: the next launch must show BEFORE, the frame the last good save
    left (CHECK names that). Then the window and the mount go."""
    pane = f"{session}:0.0"
    suite.mounts.remount("rw", mount)
    place.launch(suite.tmux, pane, "after")
    after = suite.tmux.stable(pane)
    suite.report.expect(scenario, check, same_frame(suite, f"{session}-after", before, after))
    place.quit(suite.tmux, pane, "after")
    suite.tmux.kill_session(session)
    suite.mounts.unmount(mount)
