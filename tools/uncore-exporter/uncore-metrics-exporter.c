// SPDX-License-Identifier: GPL-2.0
/*
 * uncore-metrics-exporter: keeps a node_exporter textfile of the uncore
 * PMU counts current, one perf group per PMU read with one read() per
 * interval, with no capability while it runs.
 *
 * It finds the PMUs of the families it knows in sysfs, builds each
 * event's perf_event_attr from the PMU's type, format/ and events/
 * files, and opens one group per PMU on the CPU of the PMU's cpumask.
 * Where a PMU allocates counters per event it takes at most half of
 * them (probed once at open: how many events a group of the PMU may
 * hold), so that an operator's perf stat still gets counters of its
 * own. Then it drops every capability, bounding set included: reading,
 * enabling and closing an opened perf event needs none. A PMU that
 * registers later, or one whose open failed, needs a new open: the
 * daemon writes its counters' totals to its state file and exits with
 * status 75, and systemd starts it again with the capabilities that
 * opening needs (the unit's RestartForceExitStatus=75).
 *
 * The file is only ever replaced whole: written to FILE.tmp, then
 * renamed. Its counters are the sums of the PMUs' 64-bit deltas since
 * the first start; they survive restarts through the state file
 * (written at exit) or, after a kill, the last textfile itself.
 * See tools/uncore-exporter/README.md and uncore-metrics-exporter(8).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uxp.h"

#define PROG		"uncore-metrics-exporter"
#define MAX_PMUS	256
#define MAX_EVENTS	24
#define MAX_TOTALS	8192
#define PROBE_MAX	64
#define EXIT_REOPEN	75
#define EXIT_USAGE	2
#define UEVENT_SETTLE_NS 200000000LL

struct event {
	char name[UXP_NAME_MAX];
	const struct uxp_series *s;
	uint64_t cfg[3];
	int fd;
	uint64_t prev;
	int total;			/* index into totals[] */
};

struct pmu {
	char name[UXP_NAME_MAX];
	const struct uxp_family *fam;
	int type;
	int cpu;
	struct event ev[MAX_EVENTS];
	unsigned int nev;
	int open;
	int failed;			/* the errno of its last open, told once */
	int broken;			/* its sysfs description is not usable */
	uint64_t prev_ena, prev_run;
	int t_ena, t_run;
	char labels[160];
	char info[512];
};

struct total {
	char key[384];			/* the series, as the file names it */
	size_t klen;
	__uint128_t v;
};

static const char *sysfs = "/sys/bus/event_source/devices";
static const char *modsys = "/sys/module";
static const char *output, *statef;
static char tmpf[PATH_MAX], statebuf[PATH_MAX];
static long interval_ms = 15000;
static long max_intervals = -1;
static long retry_s = 10;
static int counters_limit = -1;		/* -1 half, 0 all, else N */
static int with_cycles = 1;
static int list_only;
static char fam_sel[UXP_NAME_MAX * 16];
static char sock_sel[256];

static struct pmu pmus[MAX_PMUS];
static unsigned int npmus;
static struct total totals[MAX_TOTALS];
static unsigned int ntotals;
static int caps_dropped, need_reopen, uevent_fd = -1;
static char reopen_names[256];
static int stop;			/* set by a signal: __atomic accesses */
static struct {
	char pmu[UXP_NAME_MAX];
	int err;
} told[MAX_PMUS];
static unsigned int ntold;
static long long last_interval;	/* nanoseconds */
static int on_cpu = -1;			/* the one CPU it is bound to */
static char *outbuf;
static size_t outlen;			/* what is in outbuf */
static int write_failed;
static size_t outcap;
/* the series in the file's order (by metric), rebuilt when PMUs change */
static struct {
	unsigned short pmu, ev;
} order[MAX_PMUS * MAX_EVENTS];
static int norder = -1;			/* -1: to be rebuilt */

static void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* with --check, systemd's ExecCondition: 255 fails the unit, 1 to 254 skip it */
static int usage_status = EXIT_USAGE;

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry '" PROG " --help'.\n", stderr);
	va_end(ap);
	exit(usage_status);
}

/* a whole sysfs file, at most len - 1 bytes; -errno */
static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* ---- the counters' totals ---- */

static int total_index(const char *key)
{
	unsigned int i;

	for (i = 0; i < ntotals; i++)
		if (!strcmp(totals[i].key, key))
			return i;
	if (ntotals == MAX_TOTALS || strlen(key) >= sizeof(totals[0].key))
		return -1;
	totals[ntotals].klen = snprintf(totals[ntotals].key, sizeof(totals[0].key), "%s", key);
	totals[ntotals].v = 0;
	return ntotals++;
}

static void add_total(int i, __uint128_t v)
{
	if (i >= 0)
		totals[i].v += v;
}

/*
 * In decimal. A 128-bit division is a library call: one per 19 digits,
 * the digits themselves from 64-bit divisions by a constant.
 */
static char *u128_str(__uint128_t v, char *buf)
{
	const uint64_t e19 = 10000000000000000000ULL;
	char tmp[48];
	int n = 0, i = 0, k;
	uint64_t x;

	while (v > UINT64_MAX) {
		x = (uint64_t)(v % e19);
		v /= e19;
		for (k = 0; k < 19; k++) {
			tmp[n++] = '0' + (int)(x % 10);
			x /= 10;
		}
	}
	x = (uint64_t)v;
	do {
		tmp[n++] = '0' + (int)(x % 10);
		x /= 10;
	} while (x);
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}

static int parse_u128(const char *s, __uint128_t *v)
{
	__uint128_t x = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		if (x > (~(__uint128_t)0 - 9) / 10)
			return -ERANGE;
		x = x * 10 + (*s - '0');
	}
	if (*s && *s != '\n')
		return -EINVAL;
	*v = x;
	return 0;
}

/*
 * Totals from the last run: the state file, or where there is none (the
 * daemon was killed) the counters of the last textfile. Lines
 * "SERIES VALUE"; the enabled and running times are kept in nanoseconds
 * in the state file and in seconds in the textfile.
 */
static void load_totals(void)
{
	const char *src = statef;
	char line[512];
	int from_state = 1;
	FILE *f = fopen(statef, "re");

	if (!f) {
		from_state = 0;
		src = output;
		f = fopen(output, "re");
	}
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');
		__uint128_t v;
		int i;

		if (from_state && !strncmp(line, "#failed ", 8) && ntold < MAX_PMUS &&
		    sscanf(line + 8, "%63s %d", told[ntold].pmu, &told[ntold].err) == 2) {
			ntold++;
			continue;
		}
		if (line[0] == '#' || !sp || strncmp(line, "uncore_pmu_", 11))
			continue;
		*sp++ = '\0';
		if (!strstr(line, "_total{"))
			continue;
		if (!from_state && strstr(line, "_seconds_total{")) {
			/* seconds with up to 9 decimals, to nanoseconds */
			double s = strtod(sp, NULL);

			if (s < 0 || s > 1e12)
				continue;
			v = (__uint128_t)(s * 1e9 + 0.5);
		} else if (parse_u128(sp, &v)) {
			msg("%s: '%s %s' is not a counter, ignored", src, line, sp);
			continue;
		}
		i = total_index(line);
		if (i >= 0)
			totals[i].v = v;
	}
	fclose(f);
	if (from_state)
		unlink(statef);
}

static int save_totals(void)
{
	char tmp[PATH_MAX + 8], num[48];
	unsigned int i;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", statef);
	f = fopen(tmp, "we");
	if (!f)
		goto err;
	for (i = 0; i < ntotals; i++)
		fprintf(f, "%s %s\n", totals[i].key, u128_str(totals[i].v, num));
	/* what the journal has been told already, not to be told again */
	for (i = 0; i < npmus; i++)
		if (!pmus[i].open && pmus[i].failed > 0)
			fprintf(f, "#failed %s %d\n", pmus[i].name, pmus[i].failed);
	if (fclose(f) || rename(tmp, statef))
		goto err;
	return 0;
err:
	msg("cannot write the state file %s: %s; the counters start again from the textfile",
	    statef, strerror(errno));
	return -1;
}

/* ---- selecting PMUs ---- */

static int in_list(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	while (*p) {
		size_t m = strcspn(p, ",");

		if (m == n && !strncmp(p, item, n))
			return 1;
		p += m;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int selected(const char *name, const struct uxp_family **famp)
{
	const struct uxp_family *fam = uxp_family_of(name);
	char sock[24];
	const char *s;
	size_t n;

	if (!fam)
		return 0;
	/* Grace's nvidia_pcie_pmu_N never matches Tegra410's _rc_ names */
	if (fam_sel[0] && !in_list(fam_sel, fam->name) &&
	    !(!strcmp(fam->name, "c2c") && in_list(fam_sel, "nvlink-c2c")))
		return 0;
	if (sock_sel[0] && fam->socket) {
		s = strstr(name, "_pmu_");
		n = s ? strspn(s + 5, "0123456789") : 0;
		if (!n || n >= sizeof(sock))
			return 0;
		memcpy(sock, s + 5, n);
		sock[n] = '\0';
		if (!in_list(sock_sel, sock))
			return 0;
	}
	*famp = fam;
	return 1;
}

struct fmt_ctx {
	const char *pmu;
};

static int sysfs_field(void *ctx, const char *term, struct uxp_field *f)
{
	struct fmt_ctx *c = ctx;
	char path[PATH_MAX], buf[256];
	int err;

	snprintf(path, sizeof(path), "%s/%s/format/%s", sysfs, c->pmu, term);
	err = read_file(path, buf, sizeof(buf));
	if (err)
		return -ENOENT;
	return uxp_parse_format(buf, f) ? -EINVAL : 0;
}

/*
 * The module of the driver bound to the PMU's device: the kernel's own
 * driver, where it registered the PMU, names itself. The CoreSight
 * engine (uncore_cspmu) registers a PMU for the vendor module of its
 * family, which is the one named. A PMU has no device in sysfs before
 * 6.5: then the module of our driver for its family.
 */
static void pmu_module(const struct pmu *p, char *mod, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *name;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/device/driver/module", sysfs, p->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		name = strrchr(link, '/');
		name = name ? name + 1 : link;
	}
	if (n <= 0 || !strcmp(name, "uncore_cspmu"))
		name = p->fam->module;
	n = strnlen(name, len - 1);
	memcpy(mod, name, n);
	mod[n] = '\0';
}

/* A label value: no quote, backslash or newline can pass. */
static void label_safe(char *v)
{
	for (; *v; v++)
		if (*v == '"' || *v == '\\' || !isprint((unsigned char)*v))
			*v = '_';
}

static void pmu_info(struct pmu *p)
{
	char path[PATH_MAX], id[256] = "", ver[64] = "", mod[64];

	snprintf(path, sizeof(path), "%s/%s/identifier", sysfs, p->name);
	if (!read_file(path, id, sizeof(id)))
		chomp(id);
	pmu_module(p, mod, sizeof(mod));
	snprintf(path, sizeof(path), "%s/%s/version", modsys, mod);
	if (!read_file(path, ver, sizeof(ver)))
		chomp(ver);
	label_safe(id);
	label_safe(ver);
	label_safe(mod);
	snprintf(p->info, sizeof(p->info), ",identifier=\"%s\",module=\"%s\",version=\"%s\"",
		 id, mod, ver);
}

/*
 * Read a PMU's description: its type, CPU and the configs of the events
 * its family counts. Returns 0 or -errno (the PMU is skipped, once).
 */
static int pmu_describe(struct pmu *p)
{
	char path[PATH_MAX], buf[512], why[160], key[384];
	const char *const *e;
	struct fmt_ctx ctx = { p->name };
	char *end;
	int err;

	snprintf(path, sizeof(path), "%s/%s/type", sysfs, p->name);
	err = read_file(path, buf, sizeof(buf));
	if (err)
		return err;
	p->type = strtol(buf, &end, 10);
	if (end == buf || p->type < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s/cpumask", sysfs, p->name);
	p->cpu = -1;
	if (!read_file(path, buf, sizeof(buf))) {
		p->cpu = strtol(buf, &end, 10);
		if (end == buf)
			p->cpu = -1;
	}
	if (p->cpu < 0)
		return -EINVAL;
	uxp_pmu_labels(p->fam, p->name, p->labels, sizeof(p->labels));
	p->nev = 0;
	for (e = p->fam->events; *e && p->nev < MAX_EVENTS; e++) {
		struct event *ev = &p->ev[p->nev];
		char metric[96];

		if (uxp_is_cycles(*e) && !with_cycles)
			continue;
		snprintf(path, sizeof(path), "%s/%s/events/%s", sysfs, p->name, *e);
		if (read_file(path, buf, sizeof(buf)))
			continue;	/* a C2C link without writes */
		if (uxp_parse_event(buf, sysfs_field, &ctx, ev->cfg, why, sizeof(why))) {
			msg("%s: events/%s: %s; the event is left out", p->name, *e, why);
			continue;
		}
		snprintf(ev->name, sizeof(ev->name), "%s", *e);
		ev->s = uxp_series_of(p->fam, *e);
		ev->fd = -1;
		ev->total = -1;
		if (ev->s) {
			uxp_metric_name(ev->s->metric, metric, sizeof(metric));
			snprintf(key, sizeof(key), "%s{%s%s}", metric, p->labels,
				 ev->s->labels);
			ev->total = total_index(key);
		}
		p->nev++;
	}
	if (!p->nev)
		return -ENOENT;
	snprintf(key, sizeof(key), "uncore_pmu_events_enabled_seconds_total{%s}", p->labels);
	p->t_ena = total_index(key);
	snprintf(key, sizeof(key), "uncore_pmu_events_running_seconds_total{%s}", p->labels);
	p->t_run = total_index(key);
	pmu_info(p);
	return 0;
}

/* ---- perf ---- */

static int event_open(const struct pmu *p, const uint64_t cfg[3], int group, int leader)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = p->type;
	a.config = cfg[0];
	a.config1 = cfg[1];
	a.config2 = cfg[2];
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = leader;
	return syscall(SYS_perf_event_open, &a, -1, p->cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/*
 * How many events of the PMU one group may hold: groups that do not fit
 * the counters are refused at open, so the first refusal tells. 0 for a
 * PMU that takes PROBE_MAX (its counters are shared, not allocated).
 */
static int probe_counters(const struct pmu *p, const struct event *ev)
{
	int fds[PROBE_MAX], n, i, err = 0;

	for (n = 0; n < PROBE_MAX; n++) {
		fds[n] = event_open(p, ev->cfg, n ? fds[0] : -1, 1);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (!n)
		return -err;
	return n == PROBE_MAX ? 0 : n;
}

static void pmu_close(struct pmu *p)
{
	unsigned int i;

	for (i = 0; i < p->nev; i++) {
		if (p->ev[i].fd >= 0)
			close(p->ev[i].fd);
		p->ev[i].fd = -1;
	}
	p->open = 0;
	norder = -1;
}

static void tell_failure(struct pmu *p, int err)
{
	unsigned int i;

	/* refused for the capabilities dropped: the restart will tell */
	if (p->failed == err || (caps_dropped && (err == EACCES || err == EPERM)))
		return;
	p->failed = err;
	for (i = 0; i < ntold; i++)
		if (told[i].err == err && !strcmp(told[i].pmu, p->name))
			return;	/* told before the restart */
	if (err == EACCES || err == EPERM)
		msg("%s: perf_event_open: %s; %s", p->name, strerror(err),
		    "opening system-wide needs CAP_PERFMON (CAP_SYS_ADMIN where kernel.perf_event_paranoid is 3); retried each interval");
	else
		msg("%s: perf_event_open: %s; retried each interval", p->name,
		    strerror(err));
}

static int pmu_open(struct pmu *p)
{
	unsigned int i, take, regular = 0;
	uint64_t buf[3 + MAX_EVENTS];

	if (p->fam->allocatable && counters_limit != 0) {
		unsigned int first = 0, limit;
		int n;

		while (first < p->nev && uxp_is_cycles(p->ev[first].name))
			first++;
		n = first < p->nev ? probe_counters(p, &p->ev[first]) : 0;
		if (first < p->nev && n < 0) {
			tell_failure(p, -n);
			return n;
		}
		if (n > 0) {
			limit = counters_limit > 0 ? (unsigned int)counters_limit :
				(unsigned int)n / 2;
			if (limit > (unsigned int)n)
				limit = n;
			if (!limit)
				limit = 1;
			/* the first events up to the limit, cycles aside */
			for (i = 0, take = 0; i < p->nev; i++) {
				if (!uxp_is_cycles(p->ev[i].name) && regular++ >= limit)
					continue;
				p->ev[take++] = p->ev[i];
			}
			p->nev = take;
		}
	}
	for (i = 0; i < p->nev; i++) {
		p->ev[i].fd = event_open(p, p->ev[i].cfg, i ? p->ev[0].fd : -1, !i);
		if (p->ev[i].fd < 0) {
			int err = errno;

			pmu_close(p);
			tell_failure(p, err);
			return -err;
		}
	}
	if (ioctl(p->ev[0].fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
		int err = errno;

		pmu_close(p);
		tell_failure(p, err);
		return -err;
	}
	/* the starting point of the deltas */
	if (read(p->ev[0].fd, buf, sizeof(buf)) != (ssize_t)((3 + p->nev) * 8)) {
		int err = errno ? errno : EIO;

		pmu_close(p);
		tell_failure(p, err);
		return -err;
	}
	p->prev_ena = buf[1];
	p->prev_run = buf[2];
	for (i = 0; i < p->nev; i++)
		p->ev[i].prev = buf[3 + i];
	if (p->failed)
		msg("%s: counting", p->name);
	p->failed = 0;
	p->open = 1;
	norder = -1;
	return 0;
}

/* one read() of the group; the deltas go to the totals */
static void pmu_read(struct pmu *p)
{
	uint64_t buf[3 + MAX_EVENTS];
	ssize_t want = (3 + p->nev) * 8;
	unsigned int i;

	if (read(p->ev[0].fd, buf, want) != want || buf[0] != p->nev) {
		msg("%s: reading its group failed (%s); closed, opened again when it is back",
		    p->name, strerror(errno ? errno : EIO));
		pmu_close(p);
		p->failed = -1;
		return;
	}
	for (i = 0; i < p->nev; i++) {
		struct event *ev = &p->ev[i];
		uint64_t d = buf[3 + i] - ev->prev;

		ev->prev = buf[3 + i];
		if (ev->s)
			add_total(ev->total, (__uint128_t)d * ev->s->mul);
	}
	add_total(p->t_ena, (__uint128_t)(buf[1] - p->prev_ena) * p->nev);
	add_total(p->t_run, (__uint128_t)(buf[2] - p->prev_run) * p->nev);
	p->prev_ena = buf[1];
	p->prev_run = buf[2];
}

/* ---- finding the PMUs ---- */

static int pmu_cmp(const void *a, const void *b)
{
	const struct pmu *x = a, *y = b;

	if (x->fam != y->fam)
		return x->fam < y->fam ? -1 : 1;
	return uxp_natcmp(x->name, y->name);
}

/*
 * Look at sysfs: PMUs gone are closed and dropped, new ones (and those
 * whose open failed) opened. Once the capabilities are dropped a new open
 * is refused: need_reopen then asks for a restart.
 */
static int scan(int all, int retry)
{
	const struct uxp_family *fam;
	struct dirent *d;
	unsigned int i, found = 0;
	char seen[MAX_PMUS];
	DIR *dir = opendir(sysfs);

	if (!dir) {
		msg("cannot read %s: %s", sysfs, strerror(errno));
		return -1;
	}
	memset(seen, 0, sizeof(seen));
	while ((d = readdir(dir))) {
		if (!selected(d->d_name, &fam) || strlen(d->d_name) >= UXP_NAME_MAX)
			continue;
		found++;
		for (i = 0; i < npmus; i++)
			if (!strcmp(pmus[i].name, d->d_name))
				break;
		if (i == npmus) {
			if (npmus == MAX_PMUS)
				continue;
			memset(&pmus[i], 0, sizeof(pmus[i]));
			/* shorter than UXP_NAME_MAX: checked above */
			memcpy(pmus[i].name, d->d_name, strlen(d->d_name) + 1);
			pmus[i].fam = fam;
			pmus[i].failed = 0;
			npmus++;
		}
		seen[i] = 1;
	}
	closedir(dir);
	for (i = 0; i < npmus; ) {
		if (!seen[i]) {
			msg("%s: gone", pmus[i].name);
			pmu_close(&pmus[i]);
			pmus[i] = pmus[--npmus];
			seen[i] = seen[npmus];
			continue;
		}
		i++;
	}
	qsort(pmus, npmus, sizeof(pmus[0]), pmu_cmp);
	for (i = 0; i < npmus; i++) {
		struct pmu *p = &pmus[i];
		int err;

		if (p->open || (p->broken && !all) || (p->failed > 0 && !retry))
			continue;
		err = pmu_describe(p);
		p->broken = !!err;
		if (err) {
			if (p->failed != err) {
				msg("%s: cannot read its sysfs description: %s; %s",
				    p->name, strerror(-err), "left out until PMUs change");
				p->failed = err;
			}
			continue;
		}
		err = pmu_open(p);
		if (err && caps_dropped) {
			size_t n = strlen(reopen_names);

			need_reopen = 1;
			/* a PMU that failed before was named then */
			if (p->failed <= 0)
				snprintf(reopen_names + n, sizeof(reopen_names) - n,
					 "%s%s", n ? " " : "", p->name);
		}
	}
	/* PMUs may have come, gone or been sorted anew */
	norder = -1;
	return found;
}

/*
 * pin CPU: run on CPU only. Where the kernel refuses (a cpuset, a CPU
 * gone offline), the reads are made from wherever it runs.
 */
static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu == on_cpu)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	on_cpu = sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

/*
 * One read() per group, each made on the CPU its PMU counts on: an uncore
 * event is read there, and a read from another CPU waits for an
 * interprocessor interrupt to that one. Like perf stat, it moves to each
 * CPU of its PMUs in turn, beginning with the one it is on and ending
 * bound to the last, where the next interval begins: PMUs on one CPU
 * cost no move at all, on two one move per interval. Where the kernel
 * refuses a CPU, the reads are made from where it runs.
 */
static void read_all(void)
{
	int cpus[MAX_PMUS], ncpus = 0, first = -1;
	unsigned int i;
	int c, k;

	for (i = 0; i < npmus; i++) {
		if (!pmus[i].open)
			continue;
		if (pmus[i].cpu < 0 || pmus[i].cpu >= CPU_SETSIZE) {
			pmu_read(&pmus[i]);
			continue;
		}
		for (k = 0; k < ncpus && cpus[k] != pmus[i].cpu; k++)
			;
		if (k == ncpus)
			cpus[ncpus++] = pmus[i].cpu;
		if (pmus[i].cpu == on_cpu)
			first = k;
	}
	for (k = -1; k < ncpus; k++) {
		if (k == first || (k < 0 && first < 0))
			continue;
		c = k < 0 ? cpus[first] : cpus[k];
		if (k >= 0)
			pin(c);
		for (i = 0; i < npmus; i++)
			if (pmus[i].open && pmus[i].cpu == c)
				pmu_read(&pmus[i]);
	}
}

/* ---- capabilities ---- */

static int drop_capabilities(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct c[2];
	int cap;

	for (cap = 0; cap <= 63; cap++) {
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) != 1)
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) {
			msg("cannot drop capability %d from the bounding set: %s %s", cap,
			    strerror(errno), "(CAP_SETPCAP is needed for that)");
			return -1;
		}
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	memset(c, 0, sizeof(c));
	if (syscall(SYS_capset, &h, c)) {
		msg("cannot drop the capabilities: %s", strerror(errno));
		return -1;
	}
	caps_dropped = 1;
	return 0;
}

/* ---- the textfile ---- */

/*
 * The file is put together with copies, not printf: it is most of the
 * daemon's own work each interval.
 */
static void out_mem(const char *s, size_t n)
{
	if (outlen + n >= outcap) {
		outcap = (outcap ? outcap * 2 : 65536) + n;
		outbuf = realloc(outbuf, outcap);
		if (!outbuf) {
			msg("out of memory");
			exit(1);
		}
	}
	memcpy(outbuf + outlen, s, n);
	outlen += n;
}

static void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

static void out_u128(__uint128_t v)
{
	char num[48];

	out_str(u128_str(v, num));
}

/* NS nanoseconds as seconds, all 9 decimals */
static void out_secs(__uint128_t ns)
{
	char frac[11];
	uint64_t f = (uint64_t)(ns % 1000000000);
	int k;

	out_u128(ns / 1000000000);
	frac[0] = '.';
	for (k = 9; k >= 1; k--) {
		frac[k] = '0' + (int)(f % 10);
		f /= 10;
	}
	frac[10] = '\n';
	out_mem(frac, 11);
}

static void out_head(const char *name, const char *help, const char *type)
{
	out_str("# HELP ");
	out_str(name);
	out_mem(" ", 1);
	out_str(help);
	out_str("\n# TYPE ");
	out_str(name);
	out_mem(" ", 1);
	out_str(type);
	out_mem("\n", 1);
}

static void out_seconds(const char *name, int t)
{
	unsigned int i;

	for (i = 0; i < npmus; i++) {
		const struct pmu *p = &pmus[i];
		int k = t ? p->t_run : p->t_ena;

		if (p->open && k >= 0) {
			out_str(name);
			out_mem("{", 1);
			out_str(p->labels);
			out_mem("} ", 2);
			out_secs(totals[k].v);
		}
	}
}

/* order[]: the open PMUs' series, metric by metric, PMUs in their order */
static void sort_series(void)
{
	unsigned int m, i, j;

	norder = 0;
	for (m = 0; m < uxp_nr_metrics; m++)
		for (i = 0; i < npmus; i++)
			for (j = 0; pmus[i].open && j < pmus[i].nev; j++) {
				const struct event *ev = &pmus[i].ev[j];

				if (!ev->s || ev->s->metric != m || ev->total < 0)
					continue;
				order[norder].pmu = i;
				order[norder].ev = j;
				norder++;
			}
}

static int write_file(void)
{
	char name[96];
	struct timespec now;
	unsigned int i, m = UINT_MAX;
	int k;
	size_t len;
	ssize_t n;
	int fd;

	if (norder < 0)
		sort_series();
	outlen = 0;
	for (k = 0; k < norder; k++) {
		const struct event *ev = &pmus[order[k].pmu].ev[order[k].ev];
		const struct total *t = &totals[ev->total];

		if (ev->s->metric != m) {
			m = ev->s->metric;
			uxp_metric_name(m, name, sizeof(name));
			out_head(name, uxp_metric_help(m), "counter");
		}
		out_mem(t->key, t->klen);
		out_mem(" ", 1);
		out_u128(t->v);
		out_mem("\n", 1);
	}
	out_head("uncore_pmu_events_enabled_seconds_total",
		 "Time the events of the exporter on the PMU were enabled, summed over the events.",
		 "counter");
	out_seconds("uncore_pmu_events_enabled_seconds_total", 0);
	out_head("uncore_pmu_events_running_seconds_total",
		 "Time the events of the exporter on the PMU were counting, summed over the events; below enabled when perf multiplexed them.",
		 "counter");
	out_seconds("uncore_pmu_events_running_seconds_total", 1);
	out_head("uncore_pmu_info",
		 "A PMU the exporter counts: its identifier and the driver module that registered it, with the version of the module.",
		 "gauge");
	for (i = 0; i < npmus; i++) {
		if (pmus[i].open) {
			out_str("uncore_pmu_info{");
			out_str(pmus[i].labels);
			out_str(pmus[i].info);
			out_str("} 1\n");
		}
	}
	out_head("uncore_pmu_interval_seconds", "Length of the last measuring interval.",
		 "gauge");
	out_str("uncore_pmu_interval_seconds ");
	out_secs(last_interval);
	out_head("uncore_pmu_exporter_last_write_timestamp_seconds",
		 "Time this file was written, in seconds since the Unix epoch.", "gauge");
	clock_gettime(CLOCK_REALTIME, &now);
	out_str("uncore_pmu_exporter_last_write_timestamp_seconds ");
	out_secs((__uint128_t)now.tv_sec * 1000000000 + now.tv_nsec);

	len = outlen;
	fd = open(tmpf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto err;
	n = write(fd, outbuf, len);
	if (n != (ssize_t)len) {
		if (n >= 0)
			errno = ENOSPC;
		close(fd);
		unlink(tmpf);
		goto err;
	}
	if (close(fd) || rename(tmpf, output))
		goto err;
	if (write_failed)
		msg("%s: written again", output);
	write_failed = 0;
	return 0;
err:
	/* said once, not every interval, until a write succeeds */
	if (!write_failed++)
		msg("cannot write %s: %s", output, strerror(errno));
	return -1;
}

/*
 * Where the file goes must be writable, now: a folder that exists, a
 * name that is not a folder, and room for the temporary file beside it.
 */
static int check_output(void)
{
	struct stat st;
	int fd;

	if (!stat(output, &st) && S_ISDIR(st.st_mode)) {
		msg("--output %s: is a directory; give the file's name", output);
		return -1;
	}
	fd = open(tmpf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		msg("--output %s: cannot write %s: %s", output, tmpf, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmpf);
	return 0;
}

/* ---- waiting ---- */

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static int uevent_open(void)
{
	struct sockaddr_nl sa;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);

	if (fd < 0)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = 1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* did an event_source device come or go? */
static int uevent_drain(void)
{
	char buf[4096];
	int hit = 0;
	ssize_t n;

	while ((n = recv(uevent_fd, buf, sizeof(buf) - 1, 0)) > 0) {
		buf[n] = '\0';
		if (memmem(buf, n, "SUBSYSTEM=event_source", 22))
			hit = 1;
	}
	return hit;
}

static long long ns_of(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000 + t->tv_nsec;
}

/*
 * Sleep until the deadline, or a signal, or PMUs come or go: then 0.2 s
 * more for the uevents of the others a module registers, and the
 * interval ends early. Returns 1 where PMUs may have come or gone (a
 * uevent, or no uevent socket to tell).
 */
static int wait_until(long long deadline)
{
	struct timespec now, ts;
	struct pollfd pfd;
	int changed = uevent_fd < 0;

	for (;;) {
		long long left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = deadline - ns_of(&now);
		if (left <= 0 || __atomic_load_n(&stop, __ATOMIC_RELAXED))
			return changed;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		if (uevent_fd < 0) {
			nanosleep(&ts, NULL);
			continue;
		}
		pfd.fd = uevent_fd;
		pfd.events = POLLIN;
		if (ppoll(&pfd, 1, &ts, NULL) > 0 && uevent_drain() && !changed) {
			changed = 1;
			if (deadline > ns_of(&now) + UEVENT_SETTLE_NS)
				deadline = ns_of(&now) + UEVENT_SETTLE_NS;
		}
	}
}

/* ---- options ---- */

/*
 * --list: the events of every group it opens, as perf stat -e takes them
 * (the raw config words, so that perf counts exactly what it counts).
 * Exit 0, or 1 where no group opened.
 */
static int list_events(void)
{
	unsigned int i, j, n = 0;

	if (scan(1, 1) < 0)
		return 1;
	for (i = 0; i < npmus; i++)
		for (j = 0; pmus[i].open && j < pmus[i].nev; j++, n++)
			printf("%s/config=%#llx,config1=%#llx,config2=%#llx/\n",
			       pmus[i].name, (unsigned long long)pmus[i].ev[j].cfg[0],
			       (unsigned long long)pmus[i].ev[j].cfg[1],
			       (unsigned long long)pmus[i].ev[j].cfg[2]);
	if (fflush(stdout))
		return 1;
	return n ? 0 : 1;
}

static void usage(FILE *f)
{
	fputs("Usage: " PROG " --output FILE [OPTIONS]\n"
	      "\n"
	      "Keep FILE, a node_exporter textfile, current with the counts of the\n"
	      "NVIDIA Tegra410, NVIDIA Grace and Marvell Odyssey uncore PMUs: one perf\n"
	      "group per PMU, read once per interval.\n"
	      "\n"
	      "  -o, --output FILE    the textfile (replaced whole: FILE.tmp, then a rename)\n"
	      "  -I, --interval MS    interval in milliseconds (default 15000, 100 or more)\n"
	      "  -f, --family LIST    families, by commas (uncore-metrics --family names)\n"
	      "  -s, --socket LIST    sockets, by commas (NVIDIA PMUs)\n"
	      "      --counters N     counters taken on PMUs that allocate them: half\n"
	      "                       (default), all, or a number\n"
	      "      --no-cycles      leave the PMUs' cycle counters alone\n"
	      "      --state FILE     the counters' totals across restarts (FILE.state)\n"
	      "      --retry SEC      a PMU whose open failed is tried again each interval\n"
	      "                       from SEC seconds after the start (default 10): a\n"
	      "                       try is a restart (exit 75)\n"
	      "  -n, --count N        stop after N intervals\n"
	      "      --list           open the groups as a start would, print their events\n"
	      "                       as perf stat -e takes them, one a line, and exit\n"
	      "      --check          check the settings and that a PMU is selected:\n"
	      "                       exit 0, 1 where none is, 255 for a bad setting\n"
	      "                       (systemd's ExecCondition: skipped, or failed)\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Exit status: 0 stopped (SIGTERM: the last interval written), 1 error,\n"
	      "2 bad setting, 75 a PMU needs opening: start it again (systemd does).\n", f);
}

static long opt_number(const char *opt, const char *v, long lo, long hi)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		die_usage("%s: '%s' is not a number from %ld to %ld", opt, v, lo, hi);
	return n;
}

static void check_list(const char *opt, const char *list, int families)
{
	const char *p = list;

	if (!*list)
		die_usage("%s: empty list", opt);
	while (*p) {
		char item[UXP_NAME_MAX];
		size_t m = strcspn(p, ",");

		if (!m || m >= sizeof(item))
			die_usage("%s: '%s' is not a list", opt, list);
		memcpy(item, p, m);
		item[m] = '\0';
		if (families && !uxp_family_named(item))
			die_usage("%s: no family '%s' %s", opt, item,
				  "(ucf, pcie, pcie-tgt, cmem, c2c, nvclink, nvdlink, scf, grace-pcie, nvlink-c2c0, nvlink-c2c1, cnvlink, pem, ddr, tad)");
		if (!families && strspn(item, "0123456789") != m)
			die_usage("%s: '%s' is not a socket number", opt, item);
		p += m;
		if (*p == ',' && *++p == '\0')
			die_usage("%s: '%s' is not a list", opt, list);
	}
}

static int parse_args(int argc, char **argv)
{
	int check = 0, i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--check"))
			usage_status = 255;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--check")) {
			check = 1;
			takes = 0;
		} else if (!strcmp(a, "--no-cycles")) {
			with_cycles = 0;
			takes = 0;
		} else if (!strcmp(a, "--list")) {
			list_only = 1;
			takes = 0;
		} else if (!v && a[0] == '-') {
			if (strcmp(a, "-o") && strcmp(a, "--output") && strcmp(a, "-I") &&
			    strcmp(a, "--interval") && strcmp(a, "-f") && strcmp(a, "--family") &&
			    strcmp(a, "-s") && strcmp(a, "--socket") && strcmp(a, "--counters") &&
			    strcmp(a, "--state") && strcmp(a, "-n") && strcmp(a, "--count") &&
			    strcmp(a, "--retry"))
				die_usage("unknown option '%s'", a);
			die_usage("option %s needs a value", a);
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			output = v;
		} else if (!strcmp(a, "-I") || !strcmp(a, "--interval")) {
			interval_ms = opt_number("--interval", v, 100, 86400000);
		} else if (!strcmp(a, "-f") || !strcmp(a, "--family")) {
			check_list("--family", v, 1);
			if (strlen(v) >= sizeof(fam_sel))
				die_usage("--family: too long");
			snprintf(fam_sel, sizeof(fam_sel), "%s", v);
		} else if (!strcmp(a, "-s") || !strcmp(a, "--socket")) {
			check_list("--socket", v, 0);
			if (strlen(v) >= sizeof(sock_sel))
				die_usage("--socket: too long");
			snprintf(sock_sel, sizeof(sock_sel), "%s", v);
		} else if (!strcmp(a, "--counters")) {
			if (!strcmp(v, "half"))
				counters_limit = -1;
			else if (!strcmp(v, "all"))
				counters_limit = 0;
			else
				counters_limit = opt_number(a, v, 1, PROBE_MAX);
		} else if (!strcmp(a, "--retry")) {
			retry_s = opt_number("--retry", v, 0, 86400);
		} else if (!strcmp(a, "--state")) {
			statef = v;
		} else if (!strcmp(a, "-n") || !strcmp(a, "--count")) {
			max_intervals = opt_number("--count", v, 1, LONG_MAX);
		} else {
			die_usage("unknown option '%s'", a);
		}
		i += takes;
	}
	if (!check && !list_only && !output)
		die_usage("--output FILE is needed");
	if (output && (!*output || strlen(output) + 16 >= PATH_MAX))
		die_usage("--output: '%s' is not a file name", output);
	return check;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct timespec t0, t1, start;
	long long deadline;
	long n = 0;
	int found, check;

	/*
	 * No transparent huge pages for this process. Its tables are a few
	 * MiB of which it uses a few hundred KiB; a kernel whose THP setting
	 * is "always" (Debian's arm64 7.3) backs each 2 MiB of them it
	 * touches with a huge page, and its resident set went from 0.5 to
	 * 4.3 MiB from one run to the next. Kernels before 3.15 lack the
	 * call, which changes nothing else: its failure is not an error.
	 */
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	if (getenv("UNCORE_METRICS_SYSFS"))
		sysfs = getenv("UNCORE_METRICS_SYSFS");
	if (getenv("UNCORE_METRICS_MODULES"))
		modsys = getenv("UNCORE_METRICS_MODULES");
	check = parse_args(argc, argv);
	if (check) {
		const struct uxp_family *fam;
		struct dirent *d;
		DIR *dir = opendir(sysfs);

		if (!dir)
			return 1;
		while ((d = readdir(dir)))
			if (selected(d->d_name, &fam)) {
				closedir(dir);
				return 0;
			}
		closedir(dir);
		msg("no PMU of the families and sockets selected in %s", sysfs);
		return 1;
	}
	if (list_only)
		return list_events();
	snprintf(tmpf, sizeof(tmpf), "%s.tmp", output);
	if (!statef) {
		snprintf(statebuf, sizeof(statebuf), "%s.state", output);
		statef = statebuf;
	}
	if (check_output())
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	load_totals();
	/* a sysfs of the tests' making has no uevents: look every interval */
	if (!getenv("UNCORE_METRICS_SYSFS"))
		uevent_fd = uevent_open();
	found = scan(1, 1);
	if (found < 0)
		return 1;
	/* PMUs on one CPU: bound to it from now on */
	read_all();
	if (drop_capabilities())
		return 1;
	/*
	 * The first file, before any interval ends, gives the interval it
	 * waits for: the stale-file alert allows four of them, and with 0 it
	 * would fire on a long interval before the first one ended.
	 */
	last_interval = interval_ms * 1000000LL;
	if (write_file())
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	start = t0;
	deadline = ns_of(&t0) + interval_ms * 1000000LL;
	while (!need_reopen) {
		int changed = wait_until(deadline);
		unsigned int i;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		read_all();
		last_interval = ns_of(&t1) - ns_of(&t0);
		t0 = t1;
		if (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
			int retry = 0;

			/*
			 * A PMU whose open failed is tried again each interval,
			 * but --retry seconds after the start at the earliest:
			 * a try without capabilities is a restart.
			 */
			for (i = 0; i < npmus; i++)
				retry |= !pmus[i].open && !pmus[i].broken;
			if (ns_of(&t1) - ns_of(&start) < retry_s * 1000000000LL)
				retry = 0;
			if (retry || changed)
				scan(changed, retry);
		}
		write_file();
		if (__atomic_load_n(&stop, __ATOMIC_RELAXED))
			break;
		if (max_intervals > 0 && ++n >= max_intervals)
			break;
		deadline += interval_ms * 1000000LL;
		if (deadline < ns_of(&t1))
			deadline = ns_of(&t1) + interval_ms * 1000000LL;
	}
	save_totals();
	if (!need_reopen)
		return 0;
	if (reopen_names[0])
		msg("%s: to be opened; %s", reopen_names,
		    "exiting to be started again with the capabilities opening needs");
	return EXIT_REOPEN;
}
