// SPDX-License-Identifier: GPL-2.0
/*
 * failnth_insmod: load a module with the Nth fault-injection site of the
 * loading task failing (failslab and /proc/self/fail-nth; debug kernel).
 *
 *   failnth_insmod N MODULE.ko [PARAM...]
 *
 * The module file and /proc/self/fail-nth are opened first, so the only
 * sites counted are those of finit_module(2): the module loader, then the
 * module's init and every probe it runs. Prints one line,
 *   "loaded left R" or "refused ERRNO left R",
 * ERRNO the symbolic name of the load's error (ENOMEM, ...) and R what
 * fail-nth reads after the load: 0 when the Nth site was reached (and
 * failed), more when the whole load ran fewer than N sites.
 * Exit status 0 loaded, 1 refused, 2 usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int e;
	const char *name;
} errnames[] = {
	{ ENOMEM, "ENOMEM" }, { ENODEV, "ENODEV" }, { ENOENT, "ENOENT" },
	{ EINVAL, "EINVAL" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
	{ ENOSPC, "ENOSPC" }, { EFAULT, "EFAULT" }, { EIO, "EIO" },
	{ E2BIG, "E2BIG" }, { EAGAIN, "EAGAIN" }, { ENXIO, "ENXIO" },
};

static const char *errname(int e)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	return "EOTHER";
}

int main(int argc, char **argv)
{
	char params[4096] = "", buf[32], *end;
	unsigned long n;
	int mfd, nfd, i, ret, err;
	ssize_t len;

	if (argc < 3) {
		fprintf(stderr, "usage: %s N MODULE.ko [PARAM...]\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[1], &end, 10);
	if (*end || !n) {
		fprintf(stderr, "%s: N must be a positive number\n", argv[0]);
		return 2;
	}
	for (i = 3; i < argc; i++) {
		if (strlen(params) + strlen(argv[i]) + 2 > sizeof(params)) {
			fprintf(stderr, "%s: parameters too long\n", argv[0]);
			return 2;
		}
		if (params[0])
			strcat(params, " ");
		strcat(params, argv[i]);
	}
	mfd = open(argv[2], O_RDONLY | O_CLOEXEC);
	nfd = open("/proc/self/fail-nth", O_RDWR | O_CLOEXEC);
	if (mfd < 0 || nfd < 0) {
		perror(mfd < 0 ? argv[2] : "/proc/self/fail-nth");
		return 2;
	}
	len = snprintf(buf, sizeof(buf), "%lu", n);
	if (write(nfd, buf, len) != len) {
		perror("write /proc/self/fail-nth");
		return 2;
	}
	ret = syscall(SYS_finit_module, mfd, params, 0);
	err = errno;
	len = pread(nfd, buf, sizeof(buf) - 1, 0);
	if (len <= 0) {
		perror("read /proc/self/fail-nth");
		return 2;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (ret == 0) {
		printf("loaded left %s\n", buf);
		return 0;
	}
	printf("refused %s left %s\n", errname(err), buf);
	return 1;
}
