"""``python -m devtools.site [OUT]``: build the site into OUT (default "site")."""

import sys

from devtools.site import main

main(sys.argv[1:])
