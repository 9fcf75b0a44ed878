# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Check: gcc compiles and runs a C program
check_step() {
	printf 'int main(void) { return 0; }\n' | gcc -x c -o /tmp/t - && /tmp/t
}
