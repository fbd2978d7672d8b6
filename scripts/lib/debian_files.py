"""The files a Debian package carries besides the program: the control file, the copyright file
(DEP-5, with the licence of every library linked into the static binaries) and the changelog.

Used by scripts/package:
  python3 scripts/lib/debian_files.py control VERSION ARCH INSTALLED_KB MAINTAINER DEPENDS BUILT_USING
  python3 scripts/lib/debian_files.py copyright DEPENDENCIES_JSON MAINTAINER
  python3 scripts/lib/debian_files.py changelog CHANGELOG_MD MAINTAINER
Each prints the file on standard output.
"""
import json
import os
import re
import subprocess
import sys
import textwrap
from email.utils import formatdate

DESCRIPTION = """\
terminal app that resumes exactly where you left off
 Wonderland is a terminal app on ncurses with three tabs: Map (an offline world
 map with a remembered place, from Natural Earth), Characters (the people of
 Alice's Adventures in Wonderland, with your notes) and Book (a reader for plain
 text, Markdown and EPUB files that keeps your place in every book).
 .
 Quit, suspend or be killed, and the next launch shows the same tab, screen,
 half-typed note and cursor. Settings, notes, bookmarks and reading places are
 kept under the XDG base directories; the pin and the place in each book can be
 synced between machines through a shared folder or a PostgreSQL server.
 .
 The map needs the Natural Earth data of libmagics++-data."""


def control(version, arch, installed_kb, maintainer, depends, built_using):
    fields = [
        ("Package", "wonderland"),
        ("Version", version),
        ("Architecture", arch),
        ("Maintainer", maintainer),
        ("Installed-Size", installed_kb),
        # The app is one static executable: at run time it needs only the terminfo database,
        # which ncurses-base (essential) carries for the common terminals; the helper links
        # the C library (dpkg-shlibdeps).
        ("Depends", depends),
        ("Recommends", "libmagics++-data"),
        ("Suggests", "ncurses-term"),
        ("Built-Using", built_using),
        ("Section", "misc"),
        ("Priority", "optional"),
        ("Description", DESCRIPTION),
    ]
    return "".join(f"{name}: {value}\n" for name, value in fields if value)


def licence_of(text):
    """The SPDX name of a licence text, from its own words."""
    if "Apache License" in text and "Version 2.0" in text:
        return "Apache-2.0"
    if "Permission is hereby granted, free of charge" in text:
        return "Expat"
    if "Redistribution and use in source and binary forms" in text:
        return "BSD-3-clause" if "Neither the name" in text else "BSD-2-clause"
    return "other"


def licence_file(folder):
    for name in sorted(os.listdir(folder)):
        if re.match(r"(?i)^(licen[cs]e|copying)(\.(txt|md))?$", name):
            return os.path.join(folder, name)
    return None


def indented(text):
    """A licence text as a DEP-5 field's continuation lines."""
    lines = []
    for line in text.strip("\n").splitlines():
        line = line.rstrip()
        lines.append(" ." if not line.strip() else " " + line)
    return "\n".join(lines)


def walk(dependency, seen):
    for child in dependency.get("dependencies", []):
        if child["identity"] not in seen:
            seen[child["identity"]] = child
            walk(child, seen)
    return seen


def copyright_file(dependencies_json, maintainer):
    root = json.load(open(dependencies_json))
    out = [
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
        "Upstream-Name: wonderland",
        f"Upstream-Contact: {maintainer}",
        "Comment: wonderland and wonderland-sync-server are static executables. Besides",
        " wonderland's own code they hold the Swift runtime and standard library, the",
        " toolchain's Foundation and Dispatch, the Swift packages listed below, and",
        " Debian's ncurses, SQLite, zlib and GNU C library (see Built-Using). The",
        " default book, /usr/share/wonderland/books/alice29.txt, is Project",
        " Gutenberg's text of Lewis Carroll's Alice's Adventures in Wonderland (1865).",
        "",
        "Files: *",
        "Copyright: 2026 The Wonderland developers",
        "License: none-granted",
        " No licence has been granted for wonderland's own code yet: all rights are",
        " reserved by its developers.",
        "",
        "Files: usr/share/wonderland/books/alice29.txt",
        "Copyright: public domain (Lewis Carroll, 1865); Project Gutenberg etext",
        "License: public-domain",
        " The text is in the public domain. It is the Project Gutenberg etext as the",
        " Canterbury Corpus and Brotli's test data carry it, header included.",
        "",
        "Files: swift-toolchain/*",
        "Copyright: Apple Inc. and the Swift project authors",
        "License: Apache-2.0 with Runtime Library Exception",
        " The Swift runtime, standard library, Foundation (swift-foundation and",
        " swift-corelibs-foundation) and Dispatch, statically linked.",
        " On Debian systems the Apache License 2.0 is in",
        " /usr/share/common-licenses/Apache-2.0. Runtime Library Exception: as an",
        " exception, if you use this Software to compile your source code and portions",
        " of this Software are embedded into the binary product as a result, you may",
        " redistribute such product without providing attribution as would otherwise be",
        " required by Sections 4(a), 4(b) and 4(d) of the License.",
    ]
    for identity, dependency in sorted(walk(root, {}).items()):
        path = dependency.get("path", "")
        found = licence_file(path) if os.path.isdir(path) else None
        if not found:
            sys.exit(f"debian_files: no licence file in {path or identity}")
        text = open(found, encoding="utf-8", errors="replace").read()
        name = licence_of(text)
        out += ["", f"Files: swift-packages/{identity}/*",
                f"Copyright: the {dependency['name']} authors ({dependency['url']}, {dependency['version']})",
                f"License: {name}"]
        if name == "Apache-2.0":
            out.append(" On Debian systems the full text is in /usr/share/common-licenses/Apache-2.0.")
        else:
            out.append(indented(text))
    return "\n".join(out) + "\n"


def changelog(changelog_md, maintainer):
    """A Debian changelog with an entry per version of CHANGELOG.md, dated by the commit that
    first wrote its heading."""
    text = open(changelog_md, encoding="utf-8").read()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    entries = []
    for section in sections:
        heading, _, body = section.partition("\n")
        version = heading.strip()
        date = subprocess.run(
            ["git", "log", "--reverse", "--format=%at", "-S", f"## {version}", "--", changelog_md],
            capture_output=True, text=True).stdout.split()
        stamp = int(date[0]) if date else int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
        bullets = [re.sub(r"\s+", " ", item).strip() for item in re.split(r"^- ", body, flags=re.M)[1:]]
        lines = []
        for bullet in bullets or ["See CHANGELOG.md."]:
            wrapped = textwrap.wrap(bullet.replace("`", ""), width=74)
            lines.append("  * " + wrapped[0])
            lines += ["    " + line for line in wrapped[1:]]
        entries.append(f"wonderland ({version}) unstable; urgency=medium\n\n" + "\n".join(lines) +
                       f"\n\n -- {maintainer}  {formatdate(stamp, localtime=False, usegmt=False)}\n")
    return "\n".join(entries)


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "control":
        sys.stdout.write(control(*arguments))
    elif command == "copyright":
        sys.stdout.write(copyright_file(*arguments))
    elif command == "changelog":
        sys.stdout.write(changelog(*arguments))
    else:
        sys.exit(f"debian_files: unknown command {command}")
