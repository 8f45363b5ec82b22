// SPDX-License-Identifier: GPL-2.0
/*
 * perf_open: open one perf event with exactly the given attributes and
 * report the result, so tests can assert the errno the kernel returns.
 *
 *   perf_open [options] TYPE CONFIG
 *     -c CPU        CPU to open on (default 0; -1 for any)
 *     -p PID        task to attach to (default -1: none)
 *     -s PERIOD     sample period (sampling event)
 *     -1 CONFIG1    attr.config1
 *     -2 CONFIG2    attr.config2
 *     -L TYPE:CFG   open this event first and use it as group leader
 *     -d            open the leader (without -L: the event) disabled, as
 *                   perf opens a group's leader; a member is always
 *                   opened enabled
 *     -r            read the count after opening and print it
 *
 * Prints "ok" (and the count with -r) and exits 0 when the event opens;
 * prints "errno N NAME" and exits 1 when it is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_event(struct perf_event_attr *attr, int pid, int cpu, int group)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, 0);
}

static void init_attr(struct perf_event_attr *attr, const char *type, const char *config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = strtoul(type, NULL, 0);
	attr->config = strtoull(config, NULL, 0);
}

static int refused(const char *what)
{
	int e = errno;

	printf("errno %d %s%s\n", e, strerrorname_np(e) ? strerrorname_np(e) : "?", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr, lattr;
	int cpu = 0, pid = -1, group = -1, do_read = 0, disabled = 0, opt, fd;
	char *leader = NULL;
	uint64_t count;

	memset(&lattr, 0, sizeof(lattr));
	memset(&attr, 0, sizeof(attr));
	while ((opt = getopt(argc, argv, "c:p:s:1:2:L:rd")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'p':
			pid = atoi(optarg);
			break;
		case 's':
			attr.sample_period = strtoull(optarg, NULL, 0);
			break;
		case '1':
			attr.config1 = strtoull(optarg, NULL, 0);
			break;
		case '2':
			attr.config2 = strtoull(optarg, NULL, 0);
			break;
		case 'L':
			leader = optarg;
			break;
		case 'r':
			do_read = 1;
			break;
		case 'd':
			disabled = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-c cpu] [-p pid] [-s period] [-1 cfg1] %s\n",
				argv[0], "[-2 cfg2] [-L type:cfg] [-r] [-d] TYPE CONFIG");
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "%s: need TYPE and CONFIG\n", argv[0]);
		return 2;
	}

	if (leader) {
		char *colon = strchr(leader, ':');

		if (!colon) {
			fprintf(stderr, "%s: -L wants TYPE:CONFIG\n", argv[0]);
			return 2;
		}
		*colon = '\0';
		init_attr(&lattr, leader, colon + 1);
		lattr.disabled = disabled;
		group = open_event(&lattr, pid, cpu, -1);
		if (group < 0)
			return refused(" (leader)");
	}

	{
		uint64_t period = attr.sample_period, c1 = attr.config1, c2 = attr.config2;

		init_attr(&attr, argv[optind], argv[optind + 1]);
		attr.sample_period = period;
		attr.config1 = c1;
		attr.config2 = c2;
		attr.disabled = disabled && !leader;
	}
	fd = open_event(&attr, pid, cpu, group);
	if (fd < 0)
		return refused("");

	printf("ok\n");
	if (do_read) {
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			return refused(" (read)");
		printf("%llu\n", (unsigned long long)count);
	}
	close(fd);
	if (group >= 0)
		close(group);
	return 0;
}
