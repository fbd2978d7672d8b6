"""One run of the suite: its options, its private folders and terminal, the binaries under test,
and everything it must undo at the end whatever happens."""
import glob
import os
import shutil
import sys
import tempfile

from .place import Place
from .report import Report
from .system import Mounts
from .tmux import Tmux


class Suite:
    def __init__(self, repository, quick, binary, cloud_hammer):
        self.repository = repository
        self.quick = quick
        self.binary = binary
        self.cloud_hammer = cloud_hammer
        self.in_namespace = bool(os.environ.get("WL_FAULTS_IN_NAMESPACE"))
        # FAULTS_SABOTAGE=1 makes the server faults' reference merge wrong on purpose, to show
        # their last check can fail.
        self.sabotage = bool(os.environ.get("FAULTS_SABOTAGE"))
        libraries = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
        self.faketime = libraries[0] if libraries else ""
        self.work = tempfile.mkdtemp(prefix="wl-faults.", dir=os.environ.get("TMPDIR", "/tmp"))
        self.out = os.path.join(repository, "bench-out", "faults")
        self.out_label = "bench-out/faults"
        try:
            os.makedirs(self.out, exist_ok=True)
            if not os.access(self.out, os.W_OK):
                raise PermissionError(self.out)
        except OSError:
            self.out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"wl-faults-out-{os.getuid()}")
            self.out_label = self.out
            os.makedirs(self.out, exist_ok=True)
        # A private socket folder for every tmux of the run, the crash loop's too: inside
        # `unshare -rm` we are uid 0, and the real root's /tmp/tmux-0 is not ours.
        os.environ["TMUX_TMPDIR"] = self.work
        self.tmux = Tmux(f"wl-faults-{os.getpid()}")
        self.mounts = Mounts()
        self.report = Report()
        # What must be stopped at the end: functions, run last first.
        self.cleanups = []
        # What several faults share, made by the first that needs it (the throw-away server).
        self.shared = {}

    def place(self, name, state=None, config=None):
        """A private HOME for one scenario; STATE and CONFIG put those folders elsewhere (on a
        mount the fault controls)."""
        return Place(self.binary, self.work, name, state, config, keep=self.keep)

    def script(self, name):
        return os.path.join(self.repository, "scripts", name)

    def keep(self, name, text):
        """Keeps TEXT in the output folder, for a failure's reader."""
        with open(os.path.join(self.out, name + ".txt"), "w") as f:
            f.write(text + "\n")

    def keep_file(self, path, name):
        try:
            shutil.copyfile(path, os.path.join(self.out, name))
        except OSError:
            pass

    def on_cleanup(self, function):
        self.cleanups.append(function)

    def close(self):
        self.tmux.kill_server()
        for function in reversed(self.cleanups):
            try:
                function()
            except Exception as error:  # cleaning up must go on whatever one step says
                print(f"faults: cleanup: {error}", file=sys.stderr, flush=True)
        self.mounts.unmount_all()
        shutil.rmtree(self.work, ignore_errors=True)
