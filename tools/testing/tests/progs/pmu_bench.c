// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_bench: drive the perf callbacks of one uncore PMU through fixed
 * phases, so a tracer (tests/lib/bench.sh) can attribute the MMIO of each
 * callback, and the simulator's counters say what each phase cost.
 *
 *   pmu_bench [options] -p PMU EVENT...
 *   pmu_bench -T [options] -p PMU EVENT
 *     EVENT         CONFIG[:CONFIG1[:CONFIG2]], numbers in C syntax
 *     -p PMU        the PMU (its type from /sys/bus/event_source/devices/PMU/type)
 *     -c CPU        CPU to open on and to run on (default: the PMU's cpumask)
 *     -g            open the events as one group (the first is the leader);
 *                   reads use PERF_FORMAT_GROUP | PERF_FORMAT_ID
 *     -n N          reads in the read phase (default 16; with -T 2000)
 *     -m FILE       write "bench phase=<name>" to FILE before each phase
 *                   (tracing's trace_marker)
 *     -s FILE       the simulator's stats file: reset before each phase,
 *                   printed after it as "stats <phase> <key>=<value>..."
 *     -r FILE       the simulator's regs file: snapshot before and after
 *                   each phase, print "regs <phase> changed=<n> <reg>..."
 *     -x REG        leave <window>:<off> out of the changed registers
 *                   (may repeat), e.g. page0:e04 for PMCR
 *     -T            timing: median ns of read() on the (first) event and on
 *                   a CPU-wide software event (cpu-clock) on the same CPU,
 *                   interleaved; prints "timing ours=<ns> sw=<ns> ratio=<r>"
 *
 * Phases: open (perf_event_open, events or the group leader disabled),
 * enable (PERF_EVENT_IOC_ENABLE, group-wide with -g), read, disable (the
 * leader's with -g, see do_ioctl()),
 * reenable, read2 (one read round), close. The process runs on the PMU's
 * CPU, so the callbacks run there without an IPI and the markers land in
 * that CPU's trace buffer. Exits 1 on any failed system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	64
#define MAX_REGS	4096
#define MAX_EXCL	16

struct reg {
	char name[48];
	unsigned long long val;
};

static int fds[MAX_EVENTS];
static int nr_events;
static int group;
static const char *marker, *stats, *regs;
static const char *excl[MAX_EXCL];
static int nr_excl;
static struct reg before[MAX_REGS], after[MAX_REGS];
static int nr_before, nr_after;

static void die(const char *what)
{
	fprintf(stderr, "pmu_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_event(struct perf_event_attr *attr, int cpu, int leader)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, leader, 0);
}

static long read_number(const char *path)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		die(path);
	if (!fgets(buf, sizeof(buf), f)) {
		errno = EINVAL;
		die(path);
	}
	fclose(f);
	v = strtol(buf, NULL, 0);
	return v;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die(path);
	if (fputs(s, f) < 0 || fclose(f))
		die(path);
}

/* "stats <phase> key=value ..." for every line "key value" of the file */
static void print_stats(const char *phase)
{
	char line[128], key[64];
	unsigned long long v;
	FILE *f;

	if (!stats)
		return;
	f = fopen(stats, "r");
	if (!f)
		die(stats);
	printf("stats %s", phase);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", key, &v) == 2)
			printf(" %s=%llu", key, v);
	printf("\n");
	fclose(f);
}

static int snapshot(struct reg *r)
{
	char line[128];
	int n = 0;
	FILE *f;

	f = fopen(regs, "r");
	if (!f)
		die(regs);
	while (n < MAX_REGS && fgets(line, sizeof(line), f))
		if (sscanf(line, "%47s %llx", r[n].name, &r[n].val) == 2)
			n++;
	fclose(f);
	return n;
}

static int excluded(const char *name)
{
	int i;

	for (i = 0; i < nr_excl; i++)
		if (!strcmp(excl[i], name))
			return 1;
	return 0;
}

/* registers whose value differs between the two snapshots (same order) */
static void print_changed(const char *phase)
{
	char list[1024] = "";
	int i, j, n = 0;

	for (i = 0; i < nr_after; i++) {
		unsigned long long old = 0;
		int found = 0;

		for (j = 0; j < nr_before; j++) {
			if (!strcmp(before[j].name, after[i].name)) {
				old = before[j].val;
				found = 1;
				break;
			}
		}
		if ((found && old == after[i].val) || excluded(after[i].name))
			continue;
		n++;
		if (strlen(list) + strlen(after[i].name) + 2 < sizeof(list)) {
			strcat(list, " ");
			strcat(list, after[i].name);
		}
	}
	printf("regs %s changed=%d%s\n", phase, n, list);
}

static void phase_begin(const char *phase)
{
	char buf[64];

	if (regs)
		nr_before = snapshot(before);
	if (stats)
		write_file(stats, "0");
	if (marker) {
		snprintf(buf, sizeof(buf), "bench phase=%s\n", phase);
		write_file(marker, buf);
	}
}

static void phase_end(const char *phase)
{
	print_stats(phase);
	if (regs) {
		nr_after = snapshot(after);
		print_changed(phase);
	}
}

/*
 * A group is enabled with PERF_IOC_FLAG_GROUP (its members were opened
 * enabled: one group_sched_in) and disabled through its leader alone, so
 * that the members stay enabled and the next enable schedules the group
 * in one go again. Disabling every member would make each member's
 * re-enable reschedule the whole context: perf core's cost, not ours.
 */
static void do_ioctl(unsigned long req)
{
	int i;

	if (group) {
		if (ioctl(fds[0], req,
			  req == PERF_EVENT_IOC_ENABLE ? PERF_IOC_FLAG_GROUP : 0))
			die("ioctl");
		return;
	}
	for (i = 0; i < nr_events; i++)
		if (ioctl(fds[i], req, 0))
			die("ioctl");
}

static void read_round(void)
{
	uint64_t buf[2 + 2 * MAX_EVENTS];
	int i;

	if (group) {
		if (read(fds[0], buf, sizeof(buf)) != (ssize_t)((1 + 2 * nr_events) * 8))
			die("read group");
		return;
	}
	for (i = 0; i < nr_events; i++)
		if (read(fds[i], buf, 8) != 8)
			die("read");
}

static void parse_event(struct perf_event_attr *attr, const char *s)
{
	char *end;

	attr->config = strtoull(s, &end, 0);
	if (*end == ':')
		attr->config1 = strtoull(end + 1, &end, 0);
	if (*end == ':')
		attr->config2 = strtoull(end + 1, &end, 0);
	if (*end) {
		fprintf(stderr, "pmu_bench: bad event '%s'\n", s);
		exit(2);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* median read() time of fds[0] and of a software event, interleaved */
static void timing(int cpu, int n)
{
	struct perf_event_attr attr;
	uint64_t *ours, *sw, t, val;
	int swfd, i;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	swfd = open_event(&attr, cpu, -1);
	if (swfd < 0)
		die("perf_event_open cpu-clock");
	if (ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0))
		die("ioctl");
	ours = calloc(n, sizeof(*ours));
	sw = calloc(n, sizeof(*sw));
	if (!ours || !sw)
		die("calloc");
	for (i = 0; i < n; i++) {
		t = now_ns();
		if (read(fds[0], &val, 8) != 8)
			die("read");
		ours[i] = now_ns() - t;
		t = now_ns();
		if (read(swfd, &val, 8) != 8)
			die("read cpu-clock");
		sw[i] = now_ns() - t;
	}
	t = median(ours, n);
	val = median(sw, n);
	printf("%s ours=%llu sw=%llu ratio=%.2f\n", "timing", (unsigned long long)t,
	       (unsigned long long)val, val ? (double)t / val : 0.0);
	close(swfd);
	free(ours);
	free(sw);
}

int main(int argc, char **argv)
{
	const char *pmu = NULL;
	struct perf_event_attr attr;
	int cpu = -1, reads = -1, timed = 0, opt, i, type;
	char path[256];
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "p:c:gn:m:s:r:x:T")) != -1) {
		switch (opt) {
		case 'p':
			pmu = optarg;
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'g':
			group = 1;
			break;
		case 'n':
			reads = atoi(optarg);
			break;
		case 'm':
			marker = optarg;
			break;
		case 's':
			stats = optarg;
			break;
		case 'r':
			regs = optarg;
			break;
		case 'x':
			if (nr_excl < MAX_EXCL)
				excl[nr_excl++] = optarg;
			break;
		case 'T':
			timed = 1;
			break;
		default:
			fprintf(stderr, "%s\n",
				"usage: pmu_bench [-T] [-g] [-c CPU] [-n N] [-m MARKER] [-s STATS] [-r REGS] [-x REG]... -p PMU EVENT...");
			return 2;
		}
	}
	nr_events = argc - optind;
	if (!pmu || nr_events < 1 || nr_events > MAX_EVENTS) {
		fprintf(stderr, "pmu_bench: need -p PMU and 1 to %d events\n", MAX_EVENTS);
		return 2;
	}
	if (reads < 0)
		reads = timed ? 2000 : 16;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	type = read_number(path);
	if (cpu < 0) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask", pmu);
		cpu = read_number(path);
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	if (!timed)
		phase_begin("open");
	for (i = 0; i < nr_events; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = type;
		parse_event(&attr, argv[optind + i]);
		attr.disabled = !group || i == 0;
		if (group)
			attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		fds[i] = open_event(&attr, cpu, group && i ? fds[0] : -1);
		if (fds[i] < 0)
			die(argv[optind + i]);
	}
	if (timed) {
		timing(cpu, reads);
		return 0;
	}
	phase_end("open");

	phase_begin("enable");
	do_ioctl(PERF_EVENT_IOC_ENABLE);
	phase_end("enable");

	phase_begin("read");
	for (i = 0; i < reads; i++)
		read_round();
	phase_end("read");

	phase_begin("disable");
	do_ioctl(PERF_EVENT_IOC_DISABLE);
	phase_end("disable");

	phase_begin("reenable");
	do_ioctl(PERF_EVENT_IOC_ENABLE);
	phase_end("reenable");

	phase_begin("read2");
	read_round();
	phase_end("read2");

	phase_begin("close");
	for (i = nr_events - 1; i >= 0; i--)
		close(fds[i]);
	phase_end("close");
	return 0;
}
