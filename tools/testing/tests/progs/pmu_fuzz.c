// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_fuzz: seeded perf_event_open() fuzzer for uncore PMUs.
 *
 *   pmu_fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-v] PMU...
 *
 * For every PMU named (a directory under /sys/bus/event_source/devices),
 * it reads type, format/, events/, cpumask and associated_cpus, then opens
 * random and edge-case events: config words built around every format
 * field (zero, one, all ones, one bit past the top), stray bits outside
 * every field, the named events, sampling and frequency modes, inherit,
 * exclude_*, pinned, exclusive, read_format, CPU and task targets, and
 * groups of random size that mix these PMUs with a software event. Every
 * event that opens is enabled, read, disabled and closed (some stay open
 * for a while, so events overlap).
 *
 * Some cases have one right answer and are checked (an "oracle"):
 *   - a named event on an associated CPU, counting, alone: must open;
 *   - any bit outside every format field (otherwise clean): EINVAL;
 *   - sampling (sample_period or freq) on an associated CPU: EOPNOTSUPP;
 *   - attached to a task (pid >= 0): EOPNOTSUPP or EINVAL.
 * Any other error must be one perf_event_open() documents; EFAULT, ENOMEM
 * and the like fail the run, as does a read() error on an open event.
 *
 * Output: the seed first (a run is reproduced by giving it back with -s and
 * the same -n), per-PMU tallies, and "pmu_fuzz: PASS" or "pmu_fuzz: FAIL";
 * the exit status is 0 only for PASS.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define EVDIR		"/sys/bus/event_source/devices"
#define MAX_PMUS	64
#define MAX_FIELDS	16
#define MAX_EVENTS	64
#define MAX_CPUS	256
#define POOL		48
#define MAX_GROUP	8

struct field {
	char name[32];
	int word;		/* 0: config, 1: config1, 2: config2 */
	uint64_t mask;
};

struct named_event {
	char name[48];
	uint64_t cfg[3];
};

struct pmu {
	char name[96];
	int type;
	int nfields;
	struct field field[MAX_FIELDS];
	uint64_t used[3];	/* union of the field masks, per word */
	int nevents;
	struct named_event event[MAX_EVENTS];
	int ncpus;		/* associated CPUs */
	int cpu[MAX_CPUS];
	unsigned long opened, refused, oracle;
};

static struct pmu pmus[MAX_PMUS];
static int npmus;
static int ncpus_online;
static int verbose;
static int failures;
static uint64_t rng_state;
static unsigned long errno_hist[256];

/* xorshift64*: small, fast, the same sequence for the same seed everywhere. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int percent)
{
	return below(100) < percent;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* "config1:0-7,16-23" or "config:5" or "config2" */
static int parse_format(const char *spec, int *word, uint64_t *mask)
{
	const char *p = spec;
	unsigned int lo, hi;
	int n;

	if (strncmp(p, "config", 6))
		return -1;
	p += 6;
	*word = 0;
	if (*p >= '1' && *p <= '2')
		*word = *p++ - '0';
	*mask = 0;
	if (!*p) {
		*mask = ~0ULL;
		return 0;
	}
	if (*p++ != ':')
		return -1;
	while (*p) {
		if (sscanf(p, "%u%n", &lo, &n) != 1)
			return -1;
		p += n;
		hi = lo;
		if (*p == '-') {
			if (sscanf(p + 1, "%u%n", &hi, &n) != 1)
				return -1;
			p += n + 1;
		}
		if (hi > 63 || lo > hi)
			return -1;
		*mask |= (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

/* Spread the low bits of @val over the set bits of @mask (as PDEP does). */
static uint64_t deposit(uint64_t val, uint64_t mask)
{
	uint64_t out = 0, bit;

	for (bit = 1; mask; bit <<= 1) {
		uint64_t low = mask & -mask;

		if (val & bit)
			out |= low;
		mask &= mask - 1;
	}
	return out;
}

static struct field *find_field(struct pmu *p, const char *name)
{
	int i;

	for (i = 0; i < p->nfields; i++)
		if (!strcmp(p->field[i].name, name))
			return &p->field[i];
	return NULL;
}

/* "event=0x1,gpu_mask=0x3" -> config words, through the format fields */
static int encode_terms(struct pmu *p, char *terms, uint64_t cfg[3])
{
	char *save, *t;

	memset(cfg, 0, 3 * sizeof(*cfg));
	for (t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		struct field *f;
		uint64_t v = 1;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		f = find_field(p, t);
		if (!f)
			return -1;
		cfg[f->word] |= deposit(v, f->mask);
	}
	return 0;
}

static void parse_cpulist(const char *list, struct pmu *p)
{
	const char *s = list;

	p->ncpus = 0;
	while (*s && p->ncpus < MAX_CPUS) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && p->ncpus < MAX_CPUS; a++)
			p->cpu[p->ncpus++] = a;
		s = *end == ',' ? end + 1 : end;
	}
}

static int load_pmu(const char *name)
{
	struct pmu *p = &pmus[npmus];
	char path[512], buf[512];
	struct dirent *de;
	DIR *d;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(path, sizeof(path), EVDIR "/%s/type", name);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	p->type = atoi(buf);

	snprintf(path, sizeof(path), EVDIR "/%s/format", name);
	d = opendir(path);
	while (d && (de = readdir(d)) && p->nfields < MAX_FIELDS) {
		struct field *f = &p->field[p->nfields];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), EVDIR "/%s/format/%s", name, de->d_name);
		if (read_line(path, buf, sizeof(buf)) ||
		    parse_format(buf, &f->word, &f->mask)) {
			fail("%s: cannot parse format/%s", name, de->d_name);
			continue;
		}
		snprintf(f->name, sizeof(f->name), "%.31s", de->d_name);
		p->used[f->word] |= f->mask;
		p->nfields++;
	}
	if (d)
		closedir(d);

	snprintf(path, sizeof(path), EVDIR "/%s/events", name);
	d = opendir(path);
	while (d && (de = readdir(d)) && p->nevents < MAX_EVENTS) {
		struct named_event *e = &p->event[p->nevents];

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;	/* skip .scale and .unit files */
		snprintf(path, sizeof(path), EVDIR "/%s/events/%s", name, de->d_name);
		if (read_line(path, buf, sizeof(buf)) || encode_terms(p, buf, e->cfg)) {
			fail("%s: cannot encode events/%s", name, de->d_name);
			continue;
		}
		snprintf(e->name, sizeof(e->name), "%.47s", de->d_name);
		p->nevents++;
	}
	if (d)
		closedir(d);

	snprintf(path, sizeof(path), EVDIR "/%s/associated_cpus", name);
	if (read_line(path, buf, sizeof(buf))) {
		snprintf(path, sizeof(path), EVDIR "/%s/cpumask", name);
		if (read_line(path, buf, sizeof(buf)))
			buf[0] = 0;
	}
	parse_cpulist(buf, p);
	if (!p->ncpus)
		fail("%s: no cpumask or associated_cpus", name);
	npmus++;
	return 0;
}

static int sys_open(struct perf_event_attr *attr, int pid, int cpu, int group)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, 0);
}

/* Errors perf_event_open() may legitimately give for a random attr. */
static int errno_allowed(int e)
{
	switch (e) {
	case ENOENT: case EOPNOTSUPP: case EINVAL: case E2BIG: case EBUSY:
	case ENODEV: case EACCES: case EPERM: case ENOSPC: case ESRCH:
	case EMFILE:
		return 1;
	}
	return 0;
}

static int associated(struct pmu *p, int cpu)
{
	int i;

	for (i = 0; i < p->ncpus; i++)
		if (p->cpu[i] == cpu)
			return 1;
	return 0;
}

/*
 * Which answer one standalone open must get: 0 for success, a negative
 * errno, or ANY when the rules leave it open.
 */
#define ANY 1
enum { CLEAN_NONE, CLEAN_NAMED, CLEAN_STRAY };

static int oracle(struct pmu *p, struct perf_event_attr *a, int pid, int cpu,
		  int clean)
{
	int plain = !a->exclusive && !a->inherit && !a->precise_ip &&
		    !a->exclude_user && !a->exclude_kernel && !a->exclude_hv &&
		    !a->exclude_idle && !a->exclude_host && !a->exclude_guest;

	if (!plain || clean == CLEAN_NONE)
		return ANY;
	if (pid >= 0)
		return a->freq || a->sample_period ? ANY : -EOPNOTSUPP;
	if (cpu < 0 || !associated(p, cpu))
		return ANY;
	if (a->freq || a->sample_period)
		return -EOPNOTSUPP;
	return clean == CLEAN_NAMED ? 0 : -EINVAL;
}

/* A config for @p: around its format fields, or a named event. */
static int make_config(struct pmu *p, struct perf_event_attr *a)
{
	uint64_t cfg[3] = { 0, 0, 0 };
	int clean = CLEAN_NONE, i, w;

	if (p->nevents && chance(45)) {
		struct named_event *e = &p->event[below(p->nevents)];

		memcpy(cfg, e->cfg, sizeof(cfg));
		clean = CLEAN_NAMED;
	} else {
		for (i = 0; i < p->nfields; i++) {
			struct field *f = &p->field[i];
			uint64_t v, top;

			switch (below(6)) {
			case 0:
				continue;
			case 1:
				v = 1;
				break;
			case 2:
				v = ~0ULL;
				break;
			case 3:
				v = rnd() & 0xff;
				break;
			default:
				v = rnd();
				break;
			}
			cfg[f->word] |= deposit(v, f->mask);
			/* the bit above the field's top, whatever lies there */
			top = 1ULL << (63 - __builtin_clzll(f->mask));
			if (chance(10) && top != 1ULL << 63)
				cfg[f->word] |= top << 1;
		}
	}
	if (chance(15)) {
		/* a stray bit outside every field of one word */
		w = below(3);
		if (~p->used[w]) {
			uint64_t bit;

			do {
				bit = 1ULL << below(64);
			} while (p->used[w] & bit);
			cfg[w] |= bit;
		}
	}
	/* any bit outside every field decides the answer, whatever else is set */
	for (w = 0; w < 3; w++)
		if (cfg[w] & ~p->used[w])
			clean = CLEAN_STRAY;
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];
	return clean;
}

static void make_attr(struct perf_event_attr *a, int type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->disabled = chance(50);
	if (chance(8)) {
		a->sample_period = below(3) == 0 ? 1 : below(2) ? 100000 : 1ULL << 62;
	} else if (chance(4)) {
		a->freq = 1;
		a->sample_freq = below(2) ? 1 : 1000;
	}
	a->inherit = chance(8);
	a->exclude_user = chance(6);
	a->exclude_kernel = chance(6);
	a->exclude_hv = chance(6);
	a->exclude_idle = chance(6);
	a->exclude_host = chance(3);
	a->exclude_guest = chance(3);
	a->pinned = chance(15);
	a->exclusive = chance(4);
	if (chance(3))
		a->precise_ip = below(4);
	if (chance(35))
		a->read_format = rnd() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING |
					  PERF_FORMAT_ID | PERF_FORMAT_GROUP);
}

static int pick_cpu(struct pmu *p, int *pid)
{
	unsigned int r = below(100);

	*pid = -1;
	if (r < 6) {
		*pid = below(2) ? 0 : getpid();
		return chance(50) ? -1 : p->cpu[below(p->ncpus)];
	}
	if (r < 10)
		return -1;
	if (r < 14)
		return ncpus_online + (int)below(4);
	if (r < 30)
		return below(ncpus_online);
	return p->cpu[below(p->ncpus)];
}

struct open_event {
	int fd;
	int members;
	int fds[MAX_GROUP];
};

static struct open_event pool[POOL];
static int npool;

static void exercise(int fd, const char *what)
{
	char buf[4096];
	ssize_t n;

	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) && errno != EINVAL)
		fail("%s: enable: %s", what, strerror(errno));
	n = read(fd, buf, sizeof(buf));
	/* 0 bytes: an event in error state (a pinned one that did not fit) */
	if (n < 0 && errno != ENOSPC)
		fail("%s: read: %s", what, strerror(errno));
	if (chance(30) && ioctl(fd, PERF_EVENT_IOC_RESET, 0))
		fail("%s: reset: %s", what, strerror(errno));
	if (chance(50) && ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		fail("%s: disable: %s", what, strerror(errno));
}

static void close_entry(struct open_event *o)
{
	int i;

	for (i = o->members - 1; i >= 0; i--)
		close(o->fds[i]);
	close(o->fd);
}

static void shrink_pool(int keep)
{
	while (npool > keep) {
		int i = below(npool);

		close_entry(&pool[i]);
		pool[i] = pool[--npool];
	}
}

static void tally(struct pmu *p, int ret, int e)
{
	if (ret >= 0) {
		p->opened++;
		return;
	}
	p->refused++;
	errno_hist[e & 0xff]++;
}

static void one_standalone(struct pmu *p)
{
	struct perf_event_attr a;
	int pid, cpu, fd, clean, want, e;

	make_attr(&a, p->type);
	clean = make_config(p, &a);
	cpu = pick_cpu(p, &pid);
	fd = sys_open(&a, pid, cpu, -1);
	e = fd < 0 ? errno : 0;
	tally(p, fd, e);
	want = oracle(p, &a, pid, cpu, clean);
	if (want != ANY) {
		p->oracle++;
		if (want == -EOPNOTSUPP && pid >= 0 && e == EINVAL)
			want = -EINVAL;	/* the core may refuse a task context first */
		if (-e != want)
			fail("%s: config=%#llx,%#llx,%#llx cpu=%d pid=%d pinned=%d: %s%s%s",
			     p->name, (unsigned long long)a.config,
			     (unsigned long long)a.config1, (unsigned long long)a.config2,
			     cpu, pid, a.pinned, e ? strerror(e) : "success", ", want ",
			     want ? strerror(-want) : "success");
	} else if (e && !errno_allowed(e)) {
		fail("%s: unexpected errno %d (%s)", p->name, e, strerror(e));
	}
	if (verbose)
		printf("%s cfg=%#llx,%#llx,%#llx cpu=%d pid=%d -> %d\n", p->name,
		       (unsigned long long)a.config, (unsigned long long)a.config1,
		       (unsigned long long)a.config2, cpu, pid, e);
	if (fd < 0)
		return;
	exercise(fd, p->name);
	if (npool == POOL || chance(40)) {
		close(fd);
		return;
	}
	pool[npool].fd = fd;
	pool[npool].members = 0;
	npool++;
}

static void one_group(struct pmu *p)
{
	struct open_event o = { .fd = -1 };
	struct perf_event_attr a;
	int pid, cpu, n, i, e;

	cpu = pick_cpu(p, &pid);
	make_attr(&a, p->type);
	if (chance(20)) {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
	} else {
		make_config(p, &a);
	}
	a.read_format |= PERF_FORMAT_GROUP * chance(50);
	o.fd = sys_open(&a, pid, cpu, -1);
	e = o.fd < 0 ? errno : 0;
	tally(p, o.fd, e);
	if (o.fd < 0) {
		if (!errno_allowed(e))
			fail("%s: group leader: unexpected errno %d (%s)", p->name, e,
			     strerror(e));
		return;
	}
	n = 1 + below(MAX_GROUP - 1);
	for (i = 0; i < n; i++) {
		struct pmu *m = chance(70) ? p : &pmus[below(npmus)];
		int fd;

		make_attr(&a, m->type);
		a.disabled = 0;
		if (chance(15)) {
			a.type = PERF_TYPE_SOFTWARE;
			a.config = below(2) ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
		} else {
			make_config(m, &a);
		}
		fd = sys_open(&a, pid, cpu, o.fd);
		e = fd < 0 ? errno : 0;
		tally(m, fd, e);
		if (fd < 0) {
			if (!errno_allowed(e))
				fail("%s: group member: unexpected errno %d (%s)", m->name,
				     e, strerror(e));
			continue;
		}
		o.fds[o.members++] = fd;
	}
	exercise(o.fd, p->name);
	if (npool == POOL || chance(50)) {
		close_entry(&o);
		return;
	}
	pool[npool++] = o;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void print_help(const char *prog)
{
	fprintf(stderr, "usage: %s [-s SEED] [-n ITERATIONS] [-t SECONDS] [-v] PMU...\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long iterations = 2000, it;
	unsigned long long seed = 0;
	double deadline = 60, t0;
	int opt, i;

	while ((opt = getopt(argc, argv, "s:n:t:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			iterations = strtoul(optarg, NULL, 0);
			break;
		case 't':
			deadline = strtod(optarg, NULL);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			print_help(argv[0]);
		}
	}
	if (optind >= argc)
		print_help(argv[0]);
	if (!seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (ts.tv_sec * 1000000007ULL) ^ ts.tv_nsec ^ getpid();
	}
	printf("pmu_fuzz: seed %llu iterations %lu\n", seed, iterations);
	fflush(stdout);
	rng_state = seed ? seed : 1;
	ncpus_online = sysconf(_SC_NPROCESSORS_ONLN);

	for (i = optind; i < argc && npmus < MAX_PMUS; i++)
		if (load_pmu(argv[i]))
			fail("%s: no such PMU", argv[i]);
	if (!npmus)
		fail("no PMU to fuzz");

	t0 = now();
	for (it = 0; npmus && it < iterations; it++) {
		struct pmu *p = &pmus[below(npmus)];

		if (chance(25))
			one_group(p);
		else
			one_standalone(p);
		if (chance(10))
			shrink_pool(below(npool + 1));
		if (now() - t0 > deadline) {
			printf("pmu_fuzz: time budget reached after %lu iterations\n", it + 1);
			break;
		}
	}
	shrink_pool(0);

	for (i = 0; i < npmus; i++)
		printf("pmu_fuzz: %s: %lu opened, %lu refused, %lu checked by oracle\n",
		       pmus[i].name, pmus[i].opened, pmus[i].refused, pmus[i].oracle);
	for (i = 1; i < 256; i++)
		if (errno_hist[i])
			printf("pmu_fuzz: errno %d (%s): %lu\n", i, strerror(i), errno_hist[i]);
	printf("pmu_fuzz: %s (seed %llu)\n", failures ? "FAIL" : "PASS", seed);
	return failures ? 1 : 0;
}
