#!/bin/sh
# a suite that dies before its summary, with status 0
printf "ok 1 a\n"
