#!/usr/bin/env python3
"""Checks that the documentation stays true to the code.

Usage: check_docs.py POLYCUDA REPO_ROOT

(a) Every long option that `POLYCUDA --help` prints (--target, --explain, ...)
    appears in docs/options.md, written as `--name` (not as a prefix of a
    longer option).
(b) Every relative markdown link in README.md and docs/**/*.md resolves to an
    existing file or directory, and its #anchor, where it has one and points
    into a markdown file, to a heading of that file (GitHub's slugs).
(c) Links into bench/results/ resolve like any other (b); a name in the
    style of a results folder or file (`kernels_h100_e5a2874`,
    `random_5000_e2bdff2`, `preload_h200`, `gemm_hoisted_h200_*`: lower case,
    ending in _h100/_h200, a 7-digit commit or both) must name something in
    bench/results/ (a folder, or a file with or without its extension). A
    folder that is only in git history is cited as
    `git show 9c73b08:bench/results/<folder>/README.md` (any commit and path);
    when REPO_ROOT is a git work tree such a path must exist at that commit.

Exit status 0 when all hold, 1 otherwise (each problem on a line of its
own), 2 on a usage error. Python 3 standard library only.
"""
import fnmatch
import os
import re
import subprocess
import sys

OPTIONS_PAGE = os.path.join("docs", "options.md")
RESULTS = os.path.join("bench", "results")


def help_options(polycuda):
    """The long options at the start of --help's option lines."""
    out = subprocess.run([polycuda, "--help"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True,
                         timeout=60)
    if out.returncode != 0:
        raise RuntimeError("%s --help exited with %d" % (polycuda,
                                                           out.returncode))
    options = []
    for line in out.stdout.splitlines():
        m = re.match(r"\s+(--[A-Za-z][A-Za-z0-9-]*)", line)
        if m and m.group(1) not in options:
            options.append(m.group(1))
    if len(options) < 10:
        raise RuntimeError("found only %d long options in %s --help; has its "
                           "format changed?" % (len(options), polycuda))
    return options


def strip_code(text):
    """Text without fenced code blocks and inline code spans (links there
    are examples, not links)."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text,
                  flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped,
    spaces to hyphens."""
    heading = re.sub(r"`", "", heading.strip()).lower()
    heading = re.sub(r"[^\w\- ]", "", heading)
    return heading.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text,
                      flags=re.S | re.M)
        seen, result = {}, set()
        for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, flags=re.M):
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            result.add(s if n == 0 else "%s-%d" % (s, n))
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", text):
            result.add(m.group(1))
        cache[path] = result
    return cache[path]


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    for base, dirs, names in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        files += [os.path.join(base, n) for n in sorted(names)
                  if n.endswith(".md")]
    return files


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)


def check_links(root, path):
    problems = []
    with open(path, encoding="utf-8") as f:
        text = strip_code(f.read())
    rel = os.path.relpath(path, root)
    targets = [m.group(1) for m in LINK.finditer(text)]
    targets += [m.group(1) for m in REFERENCE.finditer(text)]
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # https:, mailto:, ...
        file_part, _, anchor = target.partition("#")
        if file_part:
            resolved = os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
        else:
            resolved = path
        if not os.path.exists(resolved):
            problems.append("%s: link to %s: no such file" % (rel, target))
            continue
        if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
            if anchor not in anchors(resolved):
                problems.append("%s: link to %s: no heading with anchor #%s "
                                "in %s" % (rel, target, anchor,
                                           os.path.relpath(resolved, root)))
    return problems


# A results folder's or file's name: lower case, ending in _h100 or _h200, in
# a 7-digit abbreviated commit, or both; `*` for any suffix.
RESULT_NAME = re.compile(
    r"(?<![\w.*-])([a-z][a-z0-9_]*?"
    r"(?:_h[12]00(?:_[0-9a-f*]{1,7}|\*)?|_[0-9a-f]{7}|_\*))"
    r"(?:\.[a-z]+)?(?![\w*-])")
# git show COMMIT:PATH, the form that cites what only history holds.
HISTORY = re.compile(r"git\s+show\s+([0-9a-f]{7,40}):([^\s`]+)")


def result_names(root, cache={}):
    """Names of the folders and files under bench/results/, with and
    without their extensions."""
    if root not in cache:
        names = set()
        for base, dirs, files in os.walk(os.path.join(root, RESULTS)):
            for n in dirs + files:
                names.add(n)
                names.add(n.split(".", 1)[0])
        cache[root] = names
    return cache[root]


def in_history(root, commit, path):
    """True, False, or None when REPO_ROOT is not a git work tree."""
    if "<" in path or "*" in path:
        return True
    path = path.rstrip("`.,;:)")
    try:
        out = subprocess.run(["git", "-C", root, "cat-file", "-e",
                              "%s:%s" % (commit, path)],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode == 0:
        return True
    top = subprocess.run(["git", "-C", root, "rev-parse", "--git-dir"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return False if top.returncode == 0 else None


def check_result_names(root, path):
    """Backticked or fenced names of results folders that bench/results/
    lacks, outside the `git show COMMIT:PATH` form."""
    problems = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rel = os.path.relpath(path, root)
    code = [m.group(0) for m in
            re.finditer(r"^(```|~~~).*?^\1[^\n]*$", text, flags=re.S | re.M)]
    rest = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    code += re.findall(r"`[^`]*`", rest, flags=re.S)
    names = result_names(root)
    for span in code:
        for m in HISTORY.finditer(span):
            if in_history(root, m.group(1), m.group(2)) is False:
                problems.append("%s: `git show %s:%s`: no such path at %s" %
                                (rel, m.group(1), m.group(2), m.group(1)))
        span = HISTORY.sub(" ", span)
        for m in RESULT_NAME.finditer(span):
            name = m.group(1)
            if "*" in name:
                found = any(fnmatch.fnmatchcase(n, name) for n in names)
            else:
                found = name in names
            if not found:
                problems.append("%s: `%s` names no folder or file under "
                                "bench/results/; link the curated folder, or "
                                "cite history as `git show 9c73b08:bench/"
                                "results/%s/README.md`" % (rel, name, name))
    return problems


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    polycuda, root = argv[1], os.path.abspath(argv[2])
    problems = []
    options_page = os.path.join(root, OPTIONS_PAGE)
    try:
        options = help_options(polycuda)
    except (OSError, RuntimeError, subprocess.SubprocessError) as e:
        print("check_docs: %s" % e, file=sys.stderr)
        return 1
    if not os.path.isfile(options_page):
        problems.append("%s: missing" % OPTIONS_PAGE)
    else:
        with open(options_page, encoding="utf-8") as f:
            page = f.read()
        for option in options:
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option),
                             page):
                problems.append("%s: option %s (from --help) is not "
                                "documented" % (OPTIONS_PAGE, option))
    files = markdown_files(root)
    for path in files:
        if os.path.isfile(path):
            problems += check_links(root, path)
            problems += check_result_names(root, path)
        else:
            problems.append("%s: missing" % os.path.relpath(path, root))
    for p in problems:
        print(p)
    print("check_docs: %d options, %d markdown files, %d problem(s)" %
          (len(options), len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
