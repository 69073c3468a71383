#!/usr/bin/env python3
"""Writes the mail and archive files MailAndArchiveTests reads, into the
folder given as argument: messages made with Python's email package (every
charset, attachments, mbox, Maildir), archives made with zipfile, tarfile,
zip (encryption), 7z and zstd when installed, and hostile files (zip bombs
written by hand, broken MIME). Deterministic: fixed dates and contents."""

import binascii
import email.charset
import email.header
import email.utils
import io
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
import zlib
from email.mime.application import MIMEApplication
from email.mime.base import MIMEBase
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

OUT = sys.argv[1]
# A real PDF of the repository's own corpus, attached to a message.
PDF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../corpora/tiny/formats/annual-report.pdf")
DATE = "Tue, 14 Nov 2023 09:30:00 +0100"  # 2023-11-14T08:30:00Z: 1699950600


def write(relative, data):
    path = os.path.join(OUT, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def headers(message, subject, charset="utf-8", sender=("Ann Smith", "ann@example.org")):
    message["Subject"] = email.header.Header(subject, charset).encode()
    message["From"] = email.utils.formataddr(sender, charset)
    message["To"] = "Bob Jones <bob@example.org>, carol@example.org"
    message["Cc"] = email.utils.formataddr(("Dörte Grün", "doerte@example.de"), "utf-8")
    message["Date"] = DATE
    message["Message-ID"] = "<fixture@example.org>"
    return message


def attachment(data, name, maintype="text", subtype="plain", disposition="attachment"):
    if maintype == "text":
        part = MIMEText(data, subtype, "utf-8")
    else:
        part = MIMEBase(maintype, subtype)
        part.set_payload(data)
        email.encoders.encode_base64(part)
    part.add_header("Content-Disposition", disposition, filename=name)
    return part


import email.encoders  # noqa: E402


def plain_message():
    outer = MIMEMultipart("mixed")
    headers(outer, "Grüße aus Köln: the quarterly plan", sender=("Ann Smith", "ann@example.org"))
    outer.attach(MIMEText("Dear team,\nthe quarterly plan is attached. Café au lait for everyone.\n", "plain", "utf-8"))
    outer.attach(attachment("# Planning notes\n\nMilestones for the petrel survey.\n", "notes.md", subtype="markdown"))
    outer.attach(attachment("First report: albatross counts.\n", "report.txt"))
    outer.attach(attachment("Second report: shearwater counts.\n", "report.txt"))
    outer.attach(attachment(b"\x89PNG\r\n\x1a\n" + bytes(64), "photo.png", "image", "png"))
    uu = MIMEBase("text", "plain")
    encoded = b"begin 644 legacy.txt\n" + b"".join(
        binascii.b2a_uu(chunk) for chunk in chunks(b"Uuencoded legacy attachment about gannets.\n", 45)) + b"`\nend\n"
    uu.set_payload(encoded.decode("ascii"))
    uu["Content-Transfer-Encoding"] = "x-uuencode"
    uu.add_header("Content-Disposition", "attachment", filename="legacy.txt")
    outer.attach(uu)
    inner = MIMEText("The forwarded message talks about puffins.\n", "plain", "utf-8")
    inner["Subject"] = "Puffin sightings"
    inner["From"] = "Dan <dan@example.org>"
    inner["Date"] = DATE
    forwarded = MIMEMessage(inner)
    forwarded.add_header("Content-Disposition", "attachment", filename="Puffins.eml")
    outer.attach(forwarded)
    return outer.as_bytes()


def chunks(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


CHARSETS = {
    # name: (subject, body, transfer encoding)
    "iso-2022-jp": ("会議の予定について", "来週の会議は東京で行います。資料を確認してください。", "7bit"),
    "shift_jis": ("東京タワーの写真", "写真を添付しました。よろしくお願いします。", "base64"),
    "euc-jp": ("大阪の天気", "明日の大阪は晴れるでしょう。", "8bit"),
    "gb2312": ("简体中文邮件", "这是一封用简体中文写的电子邮件。", "base64"),
    "gbk": ("中文測試郵件", "這封郵件使用GBK編碼，包含繁體字。", "8bit"),
    "big5": ("繁體中文郵件", "這是一封用繁體中文寫的電子郵件。", "quoted-printable"),
    "koi8-r": ("Привет из Москвы", "Встреча назначена на понедельник.", "quoted-printable"),
    "windows-1252": ("Café “menu” – €5", "Crème brûlée, naïve façade, “quoted” — done.", "quoted-printable"),
    "euc-kr": ("안녕하세요", "서울에서 보내는 편지입니다.", "base64"),
    "iso-8859-2": ("Zażółć gęślą jaźń", "Łódź i Kraków są w Polsce.", "8bit"),
}


def charset_message(charset, subject, body, cte):
    encoded = body.encode(charset)
    if cte == "base64":
        payload = email.encoders._bencode(encoded).decode("ascii") if hasattr(email.encoders, "_bencode") else binascii.b2a_base64(encoded).decode()
    elif cte == "quoted-printable":
        import quopri
        payload = quopri.encodestring(encoded).decode("ascii")
    else:
        payload = None
    # Encoded words by hand: Python's Header names some charsets by its
    # codec names ("eucgb2312_cn", "big5_tw"), which no mailer writes.
    def word(text):
        return b"=?" + charset.encode() + b"?B?" + binascii.b2a_base64(text.encode(charset), newline=False) + b"?="
    head = [
        b"From: " + word("Sender Name") + b" <sender@example.org>",
        b"To: reader@example.org",
        b"Subject: " + word(subject),
        b"Date: " + DATE.encode(),
        b"Message-ID: <" + charset.encode() + b"@example.org>",
        b"MIME-Version: 1.0",
        b"Content-Type: text/plain; charset=" + charset.encode(),
        b"Content-Transfer-Encoding: " + cte.encode(),
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + (payload.encode("ascii") if payload is not None else encoded + b"\r\n")


def html_only():
    message = MIMEText("<html><head><title>ignored</title><style>p{color:red}</style></head>"
                       "<body><p>Storm <b>petrels</b> &amp; prions</p><script>var x = 1;</script></body></html>",
                       "html", "utf-8")
    return headers(message, "HTML only").as_bytes()


def alternative():
    message = MIMEMultipart("alternative")
    headers(message, "Both kinds")
    message.attach(MIMEText("Plain words about skuas.\n", "plain", "utf-8"))
    message.attach(MIMEText("<p>HTML words about <i>terns</i></p>", "html", "utf-8"))
    return message.as_bytes()


def related_html():
    """HTML in windows-1252 saying so only in its <meta>, with an inline
    logo, as Outlook sends it."""
    message = MIMEMultipart("related")
    headers(message, "Newsletter")
    html = MIMEBase("text", "html")
    html.set_payload("<html><head><meta charset=\"windows-1252\"></head><body><p>Caf\xe9 na\xefve \x93news\x94</p>"
                     "<img src=\"cid:logo\"></body></html>".encode("latin-1"))
    email.encoders.encode_base64(html)
    message.attach(html)
    logo = MIMEBase("image", "png")
    logo.set_payload(b"\x89PNG\r\n\x1a\n" + bytes(16))
    email.encoders.encode_base64(logo)
    logo.add_header("Content-Disposition", "inline", filename="image001.png")
    logo.add_header("Content-ID", "<logo>")
    message.attach(logo)
    return message.as_bytes()


def mbox():
    messages = []
    for number, (subject, body) in enumerate([
        ("First message", "Hello from the first message.\nFrom the beginning, this line was escaped.\n"),
        ("Second message", "The second one.\n>From here on, mboxrd quoting.\n"),
    ], start=1):
        message = MIMEText(body, "plain", "us-ascii")  # 7bit: the From lines stay visible
        headers(message, subject)
        messages.append(message.as_bytes())
    third = MIMEMultipart("mixed")
    headers(third, "Third message with a report")
    third.attach(MIMEText("See the attached report.\n", "plain", "utf-8"))
    third.attach(attachment("# Report\n\nGuillemot colony census.\n", "report.md", subtype="markdown"))
    with open(PDF, "rb") as f:
        pdf = MIMEApplication(f.read(), "pdf")
    pdf.add_header("Content-Disposition", "attachment", filename="report.pdf")
    third.attach(pdf)
    messages.append(third.as_bytes())
    out = b""
    for message in messages:
        # mboxrd: any line starting with >*From gets one more '>'.
        lines = []
        for line in message.split(b"\n"):
            stripped = line.lstrip(b">")
            if stripped.startswith(b"From "):
                line = b">" + line
            lines.append(line)
        out += b"From ann@example.org Tue Nov 14 09:30:00 2023\n" + b"\n".join(lines) + b"\n\n"
    return out


def unescaped_mbox():
    """mboxo as some writers leave it: body lines starting "From " not escaped."""
    out = b""
    for number, body in enumerate([b"Minutes of the meeting.\nFrom the start, the budget was the question.\nFrom Ann, a proposal.\n",
                                   b"Second message.\n"], start=1):
        out += (b"From ann@example.org Tue Nov 14 09:3%d:00 2023\nFrom: Ann <ann@example.org>\nSubject: Message %d\n"
                b"Date: " % (number, number) + DATE.encode() + b"\n\n" + body + b"\n")
    return out


def no_closing_boundary():
    return (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: Cut short\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed; boundary=\"XYZ\"\n\n"
            b"--XYZ\nContent-Type: text/plain; charset=utf-8\n\nThe body survives the cut.\n"
            b"--XYZ\nContent-Type: text/plain; name=\"tail.txt\"\nContent-Disposition: attachment; filename=\"tail.txt\"\n\n"
            b"The attachment has no closing boundary.\n")


def boundary_never_seen(parameter):
    """A multipart whose body never shows its boundary (or that names none)."""
    return (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: No boundary\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed" + parameter + b"\n\n"
            b"The sender's program wrote the text with no boundary around it.\nStill worth reading, caf\xc3\xa9.\n")


def bad_base64():
    return (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: Bad base64\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed; boundary=\"B\"\n\n"
            b"--B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
            b"VGhlIGJvZHkgaXMg!!!!ZmluZS4=\n"
            b"--B\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n"
            b"Content-Disposition: attachment; filename=\"broken.txt\"\n\n"
            b"@@@@####$$$$\n--B--\n")


def many_parts(count):
    lines = [b"From: a@example.org", b"Date: " + DATE.encode(), b"Subject: Ten thousand parts", b"MIME-Version: 1.0",
             b"Content-Type: multipart/mixed; boundary=\"P\"", b"", b"--P", b"Content-Type: text/plain", b"",
             b"The body of the many-part message."]
    for index in range(1, count):
        lines += [b"--P", b"Content-Type: text/plain", b"Content-Disposition: attachment; filename=\"part%d.txt\"" % index,
                  b"", b"part number %d" % index]
    lines.append(b"--P--")
    return b"\n".join(lines) + b"\n"


def huge_header():
    subject = b"Huge " + b"subject " * 1_000_000
    return (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: " + subject +
            b"\nX-Long: " + b"x" * 2_000_000 + b"\n\nA small body under a huge header.\n")


def raw_8bit_headers():
    return (b"From: M\xfcller <mueller@example.org>\nDate: " + DATE.encode() +
            b"\nSubject: Invalid \xff\xfe bytes and caf\xc3\xa9\nMIME-Version: 1.0\n"
            b"Content-Type: text/plain; charset=utf-8\n\nBody with a stray \xff byte.\n")


def deep_nesting(levels):
    head = (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: Deep\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed; boundary=\"b0\"\n\n")
    opening = []
    for level in range(levels):
        opening.append(b"--b%d\n" % level)
        if level + 1 < levels:
            opening.append(b"Content-Type: multipart/mixed; boundary=\"b%d\"\n\n" % (level + 1))
    closing = [b"--b%d--\n" % level for level in reversed(range(levels))]
    shallow = b"--b0\nContent-Type: text/plain\n\nShallow text is kept.\n"
    return head + shallow + b"".join(opening) + b"Content-Type: text/plain\n\nDeepest text.\n" + b"".join(closing)


def encrypted():
    return (b"From: a@example.org\nDate: " + DATE.encode() + b"\nSubject: Secret plans\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"E\"\n\n"
            b"--E\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n"
            b"--E\nContent-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\nhQEMA...\n-----END PGP MESSAGE-----\n"
            b"--E--\n")


# MARK: archives

DOCS = {
    "notes/plan.md": "# Survey plan\n\nCount the storm petrels on the island.\n",
    "readme.txt": "Archive readme about kittiwakes.\n",
    "images/photo.png": b"\x89PNG\r\n\x1a\n" + bytes(32),
}


def make_zip(path, files):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)


def make_tar(path, files, mode):
    with tarfile.open(path, mode) as archive:
        for name, data in files.items():
            data = data if isinstance(data, bytes) else data.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1699950600
            archive.addfile(info, io.BytesIO(data))


def zip_bytes(files):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def repeated_deflate(total, byte=b"\0"):
    """A raw deflate stream of `total` bytes all `byte` (a multiple of
    1 MiB), made from one compressed megabyte repeated: byte-aligned blocks
    after a full flush are the same each time."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(byte * (1 << 20)) + compressor.flush(zlib.Z_FULL_FLUSH)
    return block * (total >> 20) + compressor.flush()


def raw_zip(members):
    """A zip of deflated members (name, data, declared size, CRC), each
    with a zip64 extra field giving its declared size. A bomb's CRC may be
    left 0: the limits stop the reader long before it is checked."""
    body = b""
    directory = b""
    for name, data, declared, crc in members:
        name = name.encode()
        extra = struct.pack("<HHQQ", 1, 16, declared, len(data))
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x5721, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name), len(extra))
        central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0x5721, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                              len(name), len(extra), 0, 0, 0, 0, len(body))
        directory += central + name + extra
        body += local + name + extra + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(directory), len(body), 0)
    return body + directory + end


def main():
    write("mail/plain.eml", plain_message())
    for charset, (subject, body, cte) in CHARSETS.items():
        write("mail/charset-%s.eml" % charset, charset_message(charset, subject, body, cte))
    write("mail/html-only.eml", html_only())
    write("mail/alternative.eml", alternative())
    write("mail/related-html.eml", related_html())
    write("mail/box.mbox", mbox())
    # As a delivery agent writes it: Return-Path and Delivered-To first.
    maildir_message = MIMEText("A message kept in a Maildir.\n", "plain", "utf-8")
    headers(maildir_message, "Maildir message")
    write("mail/Maildir/cur/1699950600.M1P2.host:2,S",
          b"Return-Path: <ann@example.org>\nDelivered-To: bob@example.org\n" + maildir_message.as_bytes())
    write("mail/spool/ann", mbox())
    write("mail/no-closing-boundary.eml", no_closing_boundary())
    write("mail/bad-base64.eml", bad_base64())
    write("mail/boundary-never-seen.eml", boundary_never_seen(b"; boundary=\"ABC\""))
    write("mail/no-boundary.eml", boundary_never_seen(b""))
    write("mail/unescaped.mbox", unescaped_mbox())
    write("mail/many-parts.eml", many_parts(10_000))
    write("mail/huge-header.eml", huge_header())
    write("mail/raw-8bit-headers.eml", raw_8bit_headers())
    write("mail/deep-nesting.eml", deep_nesting(200))
    write("mail/deeper-nesting.eml", deep_nesting(100_000))
    write("mail/encrypted.eml", encrypted())

    os.makedirs(os.path.join(OUT, "archives"), exist_ok=True)
    make_zip(os.path.join(OUT, "archives/docs.zip"), DOCS)
    for suffix, mode in [("tar", "w"), ("tar.gz", "w:gz"), ("tgz", "w:gz"), ("tar.bz2", "w:bz2"), ("tar.xz", "w:xz")]:
        make_tar(os.path.join(OUT, "archives/docs." + suffix), DOCS, mode)
    if shutil.which("zstd"):
        subprocess.run(["zstd", "-q", "-f", os.path.join(OUT, "archives/docs.tar"), "-o",
                        os.path.join(OUT, "archives/docs.tar.zst")], check=True)
    source = os.path.join(OUT, "archives/source")
    for name, data in DOCS.items():
        write("archives/source/" + name, data)
    if shutil.which("7z"):
        subprocess.run(["7z", "a", "-bd", "-bso0", os.path.join(OUT, "archives/docs.7z"), "notes", "readme.txt", "images"],
                       cwd=source, check=True)
        subprocess.run(["7z", "a", "-bd", "-bso0", "-psecret", "-mhe=on", os.path.join(OUT, "archives/hidden.7z"), "readme.txt"],
                       cwd=source, check=True)
        subprocess.run(["7z", "a", "-bd", "-bso0", "-psecret", "-mhe=off", os.path.join(OUT, "archives/locked.7z"), "readme.txt"],
                       cwd=source, check=True)
    if shutil.which("zip"):
        locked = os.path.join(OUT, "archives/locked.zip")
        subprocess.run(["zip", "-q", "-P", "secret", locked, "readme.txt"], cwd=source, check=True)
        subprocess.run(["zip", "-q", locked, "notes/plan.md"], cwd=source, check=True)

    # zip in zip in zip..., each level with a text file of its own.
    nested = zip_bytes({"level6.txt": "Level six text.\n"})
    for level in range(5, 0, -1):
        nested = zip_bytes({"level%d.txt" % level: "Level %d text.\n" % level, "inner%d.zip" % (level + 1): nested})
    write("archives/nested.zip", nested)
    write("archives/mail.zip", zip_bytes({"mail/box.mbox": mbox(), "readme.txt": "Mail backup.\n"}))
    write("archives/not-an-archive.zip", bytes(range(256)) * 8)

    # Zip bombs: 10 GiB of zeros, said (zip64 size) or hidden (a header
    # that says 1,000 bytes); 400 MiB of text in 8 honest members of 50 MiB;
    # 16 declared 10 GiB bombs inside one zip.
    ten_gib = repeated_deflate(10 << 30)
    write("archives/bomb-declared.zip", raw_zip([("zeros.txt", ten_gib, 10 << 30, 0)]))
    write("archives/bomb-hidden.zip", raw_zip([("zeros.txt", ten_gib, 1000, 0)]))
    fifty_mib = repeated_deflate(50 << 20, b"w")
    megabyte = b"w" * (1 << 20)
    fifty_crc = 0
    for _ in range(50):
        fifty_crc = zlib.crc32(megabyte, fifty_crc)
    write("archives/bomb-total.zip", raw_zip([("part%d.txt" % i, fifty_mib, 50 << 20, fifty_crc) for i in range(8)]))
    bomb = raw_zip([("zeros.txt", ten_gib, 10 << 30, 0)])
    write("archives/bomb-nested.zip", zip_bytes({"bomb%02d.zip" % i: bomb for i in range(16)}))


if __name__ == "__main__":
    main()
