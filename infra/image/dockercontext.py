"""The Docker build context of this repository as the Docker client computes it from .dockerignore, for
checks on a machine without a Docker engine (infra/check, infra/image/replay-build-stage).

The rules are moby/patternmatcher's: each line is a path pattern, cleaned and relative to the context;
"*" and "?" do not cross "/", "**" does; a "!" line is an exception. A file is left out when the last
pattern that matches the file, or one of its parent folders, is not an exception.
"""
import os
import re


def _regex(pattern):
    out, i = "", 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out += "(.*/)?"
            i += 3
            continue
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            end = pattern.index("]", i)
            out += pattern[i:end + 1]
            i = end
        elif char == "\\" and i + 1 < len(pattern):
            i += 1
            out += re.escape(pattern[i])
        else:
            out += re.escape(char)
        i += 1
    return re.compile("^" + out + "$")


def patterns(root="."):
    """(is_exception, regex, text) of each line of root/.dockerignore."""
    path = os.path.join(root, ".dockerignore")
    found = []
    if not os.path.isfile(path):
        return found
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        exception = line.startswith("!")
        if exception:
            line = line[1:].strip()
        cleaned = os.path.normpath(line).lstrip("/")
        found.append((exception, _regex(cleaned), ("!" if exception else "") + line))
    return found


def excluded(relative, rules):
    parts = relative.split("/")
    candidates = [relative] + ["/".join(parts[:i + 1]) for i in range(len(parts) - 1)]
    matched = False
    for exception, regex, _ in rules:
        if any(regex.match(candidate) for candidate in candidates):
            matched = not exception
    return matched


def context_files(root="."):
    """Every file (or link) of the folder that the Docker client would send, relative and sorted."""
    rules = patterns(root)
    exceptions = [text[1:].strip().rstrip("/") for exception, _, text in rules if exception]
    literal = not any(char in text for text in exceptions for char in "*?[\\")
    files = []
    for folder, dirs, names in os.walk(root):
        # A folder left out, under which no exception can match, is not walked (target/, .git/).
        if literal:
            kept = []
            for name in sorted(dirs):
                relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if not excluded(relative, rules) or any(text.startswith(relative + "/") for text in exceptions):
                    kept.append(name)
            dirs[:] = kept
        dirs.sort()
        for name in sorted(names):
            relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if not excluded(relative, rules):
                files.append(relative)
    return files
