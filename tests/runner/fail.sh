#!/bin/sh
# a suite that fails one check
printf "ok 1 a\nnot ok 2 b # broken\n1 passed, 1 failed\n"
exit 1
