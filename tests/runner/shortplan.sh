#!/bin/sh
# a suite that plans three checks and runs one
printf "1..3\nok 1 a\n1 passed, 0 failed\n"
