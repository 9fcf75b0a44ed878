#!/bin/sh
# a suite that passes
printf "ok 1 a\nok 2 b\n2 passed, 0 failed\n"
