#!/bin/sh
# a suite that checks nothing and says so, with status 0
printf "KTAP version 1\n1..0\n0 passed, 0 failed\n"
