#!/bin/sh
# a suite whose summary hides a failed check
printf "ok 1 a\nnot ok 2 b # broken\n2 passed, 0 failed\n"
