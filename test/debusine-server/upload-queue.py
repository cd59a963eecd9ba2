#!/usr/bin/python3
"""The current sandbox's upload queue: anonymous FTP, write-only, in the manner of
ftp.upload.debian.org, for the `package_upload` step of the `developers` templates.

Copied into the chroot and started by sandbox.sh (see developers.sh).

    upload-queue.py PORT ROOT

ROOT/incoming/ takes files (STOR); nothing may be listed, fetched, renamed or deleted,
anywhere, so a test can tell that only the upload step put files there.
"""

import logging
import os
import sys

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer


def main() -> None:
    port = int(sys.argv[1])
    root = os.path.realpath(sys.argv[2])
    incoming = os.path.join(root, "incoming")
    os.makedirs(incoming, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s"
    )

    authorizer = DummyAuthorizer()
    # "e": change directory only, so that Debusine's package_upload (which changes to the
    # URL's path before storing) gets to incoming/; "w" there: store files. pyftpdlib warns
    # about write permission for the anonymous user, which is the point here.
    authorizer.add_anonymous(root, perm="e")
    authorizer.override_perm("anonymous", incoming, perm="ew", recursive=True)

    handler = FTPHandler
    handler.authorizer = authorizer
    handler.banner = "Debusine sandbox upload queue (write-only incoming/)"

    server = FTPServer(("127.0.0.1", port), handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
