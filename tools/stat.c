#define _GNU_SOURCE
/*
 * stat.c - `pmon stat [options] -- COMMAND [ARGS]`: count metrics and events
 * on the uncore while a command runs, in the manner of perf stat and
 * likwid-perfctr.  The options are parsed here; the counting (passes, their
 * turns, totals and intervals in the machine's own time) is libpmon's metric
 * set (pmon/metric.h); the output is stat_out.c's.
 *
 * The loop: counting starts, the command is started, and until it ends
 * pmon wakes every 10 ms of wall time to see whether it has, to print an
 * interval (-I) and to give the next pass its turn (several passes).
 * SIGINT, SIGTERM and SIGHUP stop the counting: the signal is passed on to
 * the command, which pmon then waits for at most 5 s, and what was counted
 * is printed with every register restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stat.h"

#define TICK_MS 10                /* the loop's wake-up */
#define ROTATE_MS 20              /* a pass's turn when there are several */
#define WAIT_AFTER_SIGNAL_MS 5000 /* the command's time to end after a signal */
#define SVG_INTERVAL_MS 100       /* --svg without -I samples this often */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);       /* a signal ends it early: the loop looks */
}

/* One line on stderr naming what is wrong; status 2. */
static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static int refuse(const char *fmt, ...)
{
	va_list ap;
	fputs("pmon stat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (pmon stat --help)\n", stderr);
	return 2;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pmon stat [options] [--] COMMAND [ARGS...]\n"
		"  run COMMAND and count uncore metrics and events while it runs\n"
		"  -M, --metrics LIST      metrics or groups, comma-separated (default mem_bw);\n"
		"                          pmon list --metrics lists them\n"
		"  -e, --event LIST        raw events, comma-separated (pmon list); without\n"
		"                          socket= on every socket\n"
		"  -a, --all               one value for the machine (sockets added up)\n"
		"      --per-socket        a value per socket (the default)\n"
		"      --per-box           a value per box (channel, CBo...) where the metric has one\n"
		"  -I, --interval MS       print the values of every MS ms of wall time (>= 10)\n"
		"  -x, --field-separator SEP  CSV: fields separated by SEP\n"
		"  -j, --json              one JSON document\n"
		"  -o, --output FILE       write the output to FILE (created or truncated)\n"
		"      --svg FILE          an SVG timeline per socket: read and write bandwidth\n"
		"                          and the metrics asked for, over the intervals\n"
		"  -h, --help              this text\n"
		"Time is the machine's own (the emulated machine's on the emulator); the\n"
		"wall-clock time is shown beside it.  The exit status is COMMAND's (128 + N\n"
		"when a signal N killed it).  man pmon-stat has the rest.\n");
}

/* Split a comma-separated option value into list (appending). */
static int split(struct stat_opts *o, const char *arg, const char ***list, int *n, const char *what)
{
	if (o->nbufs == (int)(sizeof(o->bufs) / sizeof(o->bufs[0])))
		return refuse("%s: more than %d lists", what, o->nbufs);
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		return refuse("out of memory");
	o->bufs[o->nbufs++] = copy;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const char **grown = realloc(*list, sizeof(*grown) * (size_t)(*n + 1));
		if (!grown)
			return refuse("out of memory");
		*list = grown;
		(*list)[(*n)++] = t;
	}
	if (!*n || !**list)
		return refuse("%s: empty list", what);
	return 0;                   /* copy lives as long as the options */
}

static int parse(int argc, char **argv, struct stat_opts *o)
{
	enum { OPT_PER_SOCKET = 256, OPT_PER_BOX, OPT_SVG };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", required_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'a' },
		{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
		{ "per-box", no_argument, NULL, OPT_PER_BOX },
		{ "interval", required_argument, NULL, 'I' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, rc, aggr_given = 0;
	char *end;
	argv[0] = "pmon stat";
	optind = 0;
	opterr = 0;                       /* our own one-line refusals */
	while ((ch = getopt_long(argc, argv, "+:e:M:aI:x:jo:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'e':
			if ((rc = split(o, optarg, &o->events, &o->nevents, "-e")))
				return rc;
			break;
		case 'M':
			if ((rc = split(o, optarg, &o->metrics, &o->nmetrics, "-M")))
				return rc;
			break;
		case 'a':
		case OPT_PER_SOCKET:
		case OPT_PER_BOX: {
			int a = ch == 'a' ? AGGR_MACHINE : ch == OPT_PER_BOX ? AGGR_BOX : AGGR_SOCKET;
			if (aggr_given && o->aggr != a)
				return refuse("-a, --per-socket and --per-box: give one");
			o->aggr = a;
			aggr_given = 1;
			break;
		}
		case 'I': {
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (*end || end == optarg || errno || v < 10 || v > 3600000)
				return refuse("-I '%s': an interval in ms from 10 to 3600000", optarg);
			o->interval_ms = v;
			break;
		}
		case 'x':
			if (!*optarg || strchr(optarg, '\n') || strchr(optarg, '.'))
				return refuse("-x '%s': a separator that is not empty, a newline or '.'", optarg);
			o->sep = optarg;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'o':
			o->out_path = optarg;
			break;
		case OPT_SVG:
			o->svg_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return refuse("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt)
				return refuse("unknown option '-%c'", optopt);
			return refuse("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (o->json && o->sep)
		return refuse("-x and --json: give one");
	if (optind >= argc)
		return refuse("no command given: pmon stat [options] -- COMMAND [ARGS]");
	o->cmd = argv + optind;
	return 0;
}

/* Every metric of the -M list (metric or group names); an unknown name is
 * refused.  A metric of a group that this machine cannot count is said and
 * left out; a metric named alone must be counted. */
static int add_metrics(struct stat_ctx *c)
{
	char why[512];
	for (int i = 0; i < c->o->nmetrics; i++) {
		const char *name = c->o->metrics[i];
		/* the machine's generation's metric or group of this name */
		int mi = pmon_machine_metric_find(c->m, name, why, sizeof(why)), g = -1;
		if (mi == PMON_ENODEV) {
			fprintf(stderr, "pmon stat: %s\n", why);
			return 1;
		}
		if (mi < 0)
			g = pmon_machine_metric_group_find(c->m, name, why, sizeof(why));
		if (mi < 0 && g == PMON_ENODEV) {
			fprintf(stderr, "pmon stat: %s\n", why);
			return 1;
		}
		if (mi < 0 && g < 0)
			return refuse("unknown metric or group '%s' (pmon list --metrics lists them)", name);
		if (mi >= 0) {
			if (pmon_mset_add_metric(c->set, mi, -1, why, sizeof(why)) < 0) {
				fprintf(stderr, "pmon stat: %s cannot be counted here: %s\n", name, why);
				return 1;
			}
			continue;
		}
		const char *gname, *ggen = pmon_metric_group_generation(g);
		pmon_metric_group_get(g, &gname, NULL);
		int added = 0;
		for (int k = 0; k < pmon_metric_count(); k++) {
			pmon_metric_info_t info;
			pmon_metric_get(k, &info);
			if (strcmp(info.group, gname) || strcmp(info.generation, ggen))
				continue;
			if (pmon_mset_add_metric(c->set, k, -1, why, sizeof(why)) < 0)
				fprintf(stderr, "pmon stat: %s (group %s) left out: %s\n", info.name, gname, why);
			else
				added++;
		}
		if (!added) {
			fprintf(stderr, "pmon stat: no metric of group %s can be counted here\n", gname);
			return 1;
		}
	}
	return 0;
}

static int add_events(struct stat_ctx *c)
{
	char why[512];
	for (int i = 0; i < c->o->nevents; i++)
		if (pmon_mset_add_event(c->set, c->o->events[i], why, sizeof(why)) < 0) {
			fprintf(stderr, "pmon stat: event '%s': %s\n", c->o->events[i], why);
			return 2;
		}
	return 0;
}

/* The read and write bandwidth the SVG always shows, when not asked for. */
static void add_svg_bandwidth(struct stat_ctx *c)
{
	static const char *const bw[] = { "MEM_BW_READS", "MEM_BW_WRITES" };
	char why[256];
	for (int b = 0; b < 2; b++) {
		int have = 0;
		for (int i = 0; i < pmon_mset_item_count(c->set); i++) {
			pmon_mset_item_t it;
			pmon_mset_item_get(c->set, i, &it);
			have |= it.metric >= 0 && !strcmp(it.name, bw[b]);
		}
		int mi = pmon_machine_metric_find(c->m, bw[b], why, sizeof(why));
		if (!have && (mi < 0 || pmon_mset_add_metric(c->set, mi, -1, why, sizeof(why)) < 0))
			fprintf(stderr, "pmon stat: --svg: %s left out: %s\n", bw[b], why);
	}
}

static FILE *open_output(const char *path)
{
	/* no symbolic link followed: pmon may run as root */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		fprintf(stderr, "pmon stat: -o %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static pid_t run_command(char **cmd)
{
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "pmon stat: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	return pid;
}

static void take_status(struct stat_status *st, int ws)
{
	st->waited = 1;
	if (WIFEXITED(ws))
		st->exited = 1, st->code = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws))
		st->signaled = 1, st->sig = WTERMSIG(ws);
}

/* Count while the command runs; the set is stopped on return. */
static int count(struct stat_ctx *c, struct stat_status *st)
{
	char why[512];
	long every = c->o->interval_ms ? c->o->interval_ms : c->o->svg_path ? SVG_INTERVAL_MS : 0;
	int multi = pmon_mset_npasses(c->set) > 1, rc = 0, ws;
	if (pmon_mset_start(c->set, why, sizeof(why))) {
		fprintf(stderr, "pmon stat: %s\n", why);
		return 1;
	}
	double t0 = wall_now(), next_iv = t0 + every / 1e3, next_rot = t0 + ROTATE_MS / 1e3;
	pid_t pid = run_command(c->o->cmd);
	if (pid < 0) {
		fprintf(stderr, "pmon stat: fork: %s\n", strerror(errno));
		pmon_mset_stop(c->set, why, sizeof(why));
		return 1;
	}
	for (;;) {
		pid_t w = waitpid(pid, &ws, WNOHANG);
		if (w == pid) {
			take_status(st, ws);
			break;
		}
		if (got_signal)
			break;
		double now = wall_now();
		if (every && now >= next_iv) {
			if ((rc = pmon_mset_sample(c->set, why, sizeof(why))))
				break;
			stat_out_interval(c);
			next_iv += every / 1e3;
		}
		if (multi && now >= next_rot) {
			if ((rc = pmon_mset_rotate(c->set, why, sizeof(why))))
				break;
			next_rot = now + ROTATE_MS / 1e3;
		}
		sleep_ms(TICK_MS);
	}
	int src = pmon_mset_stop(c->set, rc ? NULL : why, rc ? 0 : sizeof(why));
	if (rc || src)
		fprintf(stderr, "pmon stat: counting stopped: %s\n", why);
	if (!st->waited) {
		/* a signal, or a failed read: the command is told and waited for */
		st->interrupted = got_signal != 0;
		kill(pid, got_signal ? got_signal : SIGTERM);
		for (int waited = 0; waited < WAIT_AFTER_SIGNAL_MS; waited += TICK_MS) {
			if (waitpid(pid, &ws, WNOHANG) == pid) {
				take_status(st, ws);
				break;
			}
			sleep_ms(TICK_MS);
		}
	}
	if (every && !rc && !src && pmon_mset_seconds(c->set, PMON_MSET_INTERVAL) > 0)
		stat_out_interval(c);     /* the remainder after the last whole interval */
	st->wall = wall_now() - t0;
	return rc || src ? 1 : 0;
}

int stat_main(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	struct stat_ctx c = { 0 };
	struct stat_status st = { 0 };
	char why[1024];
	int rc = parse(argc, argv, &o);
	if (rc)
		goto out_opts;
	/* names are checked before the machine is opened */
	for (int i = 0; i < o.nmetrics; i++)
		if (pmon_metric_find(o.metrics[i]) < 0 && pmon_metric_group_find(o.metrics[i]) < 0) {
			rc = refuse("unknown metric or group '%s' (pmon list --metrics lists them)",
				    o.metrics[i]);
			goto out_opts;
		}
	if (!o.nmetrics && !o.nevents) {
		static const char *dflt[] = { "mem_bw" };
		o.metrics = malloc(sizeof(*o.metrics));
		if (!o.metrics) {
			rc = 1;
			goto out_opts;
		}
		o.metrics[0] = dflt[0];
		o.nmetrics = 1;
	}
	c.o = &o;
	if (pmon_machine_open(&c.m, NULL, why, sizeof(why))) {
		fprintf(stderr, "pmon stat: %s\n", why);
		rc = 1;
		goto out_opts;
	}
	c.nsock = pmon_machine_nsockets(c.m);
	if ((rc = pmon_mset_create(c.m, &c.set))) {
		fprintf(stderr, "pmon stat: %s\n", pmon_strerror(rc));
		rc = 1;
		goto out;
	}
	if ((rc = add_metrics(&c)) || (rc = add_events(&c)))
		goto out;
	if (o.svg_path)
		add_svg_bandwidth(&c);
	c.out = o.out_path ? open_output(o.out_path) : stdout;
	if (!c.out) {
		rc = 1;
		goto out;
	}
	if ((rc = stat_out_begin(&c)))
		goto out;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	int crc = count(&c, &st);
	rc = stat_out_end(&c, &st);
	if (st.signaled)
		fprintf(stderr, "pmon stat: %s killed by signal %d (%s)\n", o.cmd[0], st.sig, strsignal(st.sig));
	else if (!st.waited)
		fprintf(stderr, "pmon stat: %s still running, not waited for\n", o.cmd[0]);
	if (st.interrupted)
		fprintf(stderr, "pmon stat: interrupted by signal %d: counted until then\n", (int)got_signal);
	if (!rc)
		rc = st.exited ? st.code : st.signaled ? 128 + st.sig : crc ? 1 : 1;
out:
	stat_out_free(&c);
	if (c.out && c.out != stdout && fclose(c.out)) {
		fprintf(stderr, "pmon stat: -o %s: %s\n", o.out_path, strerror(errno));
		rc = rc ? rc : 1;
	}
	pmon_mset_destroy(c.set);   /* every register the set programmed restored */
	if (c.m)
		pmon_machine_close(c.m);
out_opts:
	free(o.events);
	free(o.metrics);
	for (int i = 0; i < o.nbufs; i++)
		free(o.bufs[i]);
	return rc < 0 ? 0 : rc;
}
