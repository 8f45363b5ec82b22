// SPDX-License-Identifier: GPL-2.0
/*
 * runas: run a command as another user, without supplementary groups and
 * without capabilities (busybox's setpriv cannot change the uid).
 *
 *   runas UID GID COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: %s UID GID COMMAND [ARG...]\n", argv[0]);
		return 2;
	}
	uid = strtoul(argv[1], NULL, 0);
	gid = strtoul(argv[2], NULL, 0);
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("runas");
		return 126;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
