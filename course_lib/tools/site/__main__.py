"""``python -m course_lib.tools.site [OUT]``: build the site into OUT (default "site")."""

import sys

from course_lib.tools.site import main

main(sys.argv[1:])
