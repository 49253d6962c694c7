/* test_stat_nhm.c - `pmon stat` on the emulated Nehalem-EP and Westmere-EP
 * (PMON_SIM gen=nhm-ep, gen=wsm-ep; build/bin/pmon or $PMON_BIN), as a user
 * runs it:
 *   - load=250M (a DRAM read stream of 2.5e8 B per emulated second on
 *     socket 0's memory, read by socket 0): -M mem_bw reports 0.25 GB/s of
 *     reads and of total on socket 0 within 1 %, none on socket 1, no writes (exact:
 *     one pass), a third of it on each channel (-M mem_bw_channel, two
 *     passes: estimates); the home logic's local reads the same 0.25 GB/s,
 *     100 % of its requests local and reads, no remote traffic, no
 *     uncacheable write, every LLC read a miss, and the local read latency
 *     the shape's lat_dram (80 ns: 213 UCLK cycles of 2.66 GHz, 80.075 ns)
 *     in the home logic and the global queue;
 *   - pmon list --metrics names each generation's metrics under its title,
 *     and a pattern of a generation's name lists its own;
 *   - the kernel's perf names (uncore/qmc_normal_reads_any/) count this
 *     machine's events, the stream's lines;
 *   - a metric of another generation is refused with one line naming the
 *     event this uncore lacks (SNB-EP's TOR latency; Nehalem's write
 *     tracker latency on Westmere-EP), a group of another generation too,
 *     and nothing is counted;
 *   - the text table prints a value that has no requests behind it as
 *     "n/a", without a unit. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "stat_values.h"

static const char *tool;

/* The emulated read stream (the shape's load=) and its rate in GB/s. */
#define LOAD "250M"
#define GBPS 0.25

/* Run the tool with args under env (PMON_BACKEND=sim): stdout into *out,
 * stderr into *err (to be freed); the exit status (-1 if killed). */
static int run(const char *env, const char *args, char **out, char **err)
{
	char cmd[2048], path[] = "/tmp/test_stat_nhm_XXXXXX";
	int fd = mkstemp(path);
	*out = *err = NULL;
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "env PMON_BACKEND=sim %s %s %s 2>%s", env, tool, args, path);
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 20, n = 0, r;
	char *buf = calloc(1, cap);
	while (f && buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0)
		n += r;
	*out = buf;
	int st = f ? pclose(f) : -1;
	FILE *e = fopen(path, "r");
	if (e) {
		*err = calloc(1, 65536);
		if (*err)
			(*err)[fread(*err, 1, 65535, e)] = 0;
		fclose(e);
	}
	unlink(path);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static json_t *stat_json(const char *gen, const char *load, const char *metrics, const char *cmd)
{
	char env[128], args[512], *out, *err;
	snprintf(env, sizeof(env), "PMON_SIM=gen=%s%s%s", gen, *load ? ",load=" : "", load);
	snprintf(args, sizeof(args), "stat --json -M %s -- %s", metrics, cmd);
	int rc = run(env, args, &out, &err);
	CHECK(rc == 0, "%s: pmon stat -M %s exit status %d (%s)", gen, metrics, rc, err ? err : "");
	json_error_t je;
	json_t *doc = out ? json_loads(out, 0, &je) : NULL;
	CHECK(doc != NULL, "%s -M %s: JSON (%s)", gen, metrics, out ? je.text : "no output");
	free(out);
	free(err);
	return doc;
}

/* The start and the end of the count are register accesses apart from the
 * reads of the machine's time: on the emulated machine, whose clock runs
 * with the stream it models, a loaded host can leave up to about 2 ms of
 * machine time between them (seen: 0.989 GB/s over a short run at load
 * 11), so a rate's tolerance is its own plus 2 ms over the run's machine
 * seconds: host scheduling only. */
static double slack(json_t *doc)
{
	double ms = json_number_value(json_object_get(doc, "machine_seconds"));
	return ms > 0 ? 2e-3 / ms : 1;
}

#define NEAR(v, want, rel, what, ...) \
	CHECK(fabs((v) - (want)) <= (rel) * (want), what ": %.6g, want %.6g within %g %%", __VA_ARGS__, \
	      (double)(v), (double)(want), 100 * (rel))

/* The values of one run, and that it was exact (one pass) when asked. */
static json_t *values_of(json_t *doc, const char *gen, const char *metrics, int exact)
{
	if (exact)
		CHECK(json_integer_value(json_object_get(doc, "passes")) == 1, "%s -M %s: one pass, exact",
		      gen, metrics);
	return json_object_get(doc, "values");
}

/* load=250M: socket 0 reads its own memory, 2.5e8 B a second of machine
 * time.  (The emulated machine models every line of the stream: at 1G the
 * stream took four times the CPU, for the same checks.) */
static void mem_bw(const char *gen)
{
	json_t *doc = stat_json(gen, LOAD, "mem_bw", "sleep 0.2");
	if (!doc)
		return;
	json_t *vals = values_of(doc, gen, "mem_bw", 1);
	/* 1 %: the count starts and stops at register accesses, which see the
	 * emulated clock in steps of 10 us, far below 1 % of the run */
	NEAR(stat_jvalue(vals, "MEM_BW_READS", 0), GBPS, 0.01 + slack(doc), "%s: MEM_BW_READS S0 GB/s", gen);
	NEAR(stat_jvalue(vals, "MEM_BW_TOTAL", 0), GBPS, 0.01 + slack(doc), "%s: MEM_BW_TOTAL S0 GB/s", gen);
	CHECK(stat_jvalue(vals, "MEM_BW_READS", 1) == 0, "%s: no reads on socket 1", gen);
	CHECK(stat_jvalue(vals, "MEM_BW_WRITES", 0) == 0 && stat_jvalue(vals, "MEM_BW_WRITES", 1) == 0, "%s: no writes",
	      gen);
	json_decref(doc);
	/* per channel: the stream's lines interleave over the 3 channels; 16
	 * events take two passes, whose shares of the time scale the counts
	 * (estimates: 3 %) */
	doc = stat_json(gen, LOAD, "mem_bw_channel", "sleep 0.15");
	if (!doc)
		return;
	vals = values_of(doc, gen, "mem_bw_channel", 0);
	double sum = 0;
	for (int c = 0; c < 3; c++) {
		char nm[32];
		snprintf(nm, sizeof(nm), "MEM_BW_READS_CH%d", c);
		NEAR(stat_jvalue(vals, nm, 0), GBPS / 3, 0.03 + slack(doc), "%s: %s S0 GB/s", gen, nm);
		sum += stat_jvalue(vals, nm, 0);
		snprintf(nm, sizeof(nm), "MEM_BW_WRITES_CH%d", c);
		CHECK(stat_jvalue(vals, nm, 0) == 0, "%s: %s none", gen, nm);
	}
	NEAR(sum, GBPS, 0.03 + slack(doc), "%s: the channels' reads added up", gen);
	json_decref(doc);
}

/* The home logic, the latencies and the LLC on the same stream, in runs
 * of one pass each (exact; one latency a run: each needs the fixed UCLK
 * counter). */
static void home_and_latency(const char *gen)
{
	static const struct {
		const char *metric;
		double s0;           /* socket 0's value */
		double rel;          /* relative tolerance (0: exactly) */
	} want[] = {
		{ "QHL_BW_LOCAL_READS", GBPS, 0.01 },
		{ "QHL_PCT_LOCAL_REQUESTS", 100, 0 },
		{ "UNCACHEABLE_WRITE_BYTES", 0, 0 },
		/* 80 ns in whole UCLK cycles of 2.66 GHz: 213 / 2.66 = 80.075 ns;
		 * the UCLK counter and the machine's time are read apart (10 us
		 * steps of the emulated clock) */
		{ "QHL_LOCAL_READ_LATENCY", 213 / 2.66, 1e-3 },
		{ "LLC_READ_MISS_PCT", 100, 0 },
		{ "QHL_BW_REMOTE", 0, 0 },
		{ "GQ_READ_LATENCY", 213 / 2.66, 1e-3 },
		{ "QHL_PCT_RD_REQUESTS", 100, 0 },
	};
	static const char *const runs[] = {
		"QHL_BW_LOCAL_READS,QHL_PCT_LOCAL_REQUESTS,UNCACHEABLE_WRITE_BYTES",
		"QHL_LOCAL_READ_LATENCY,LLC_READ_MISS_PCT,QHL_BW_REMOTE",
		"GQ_READ_LATENCY,QHL_PCT_RD_REQUESTS",
	};
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		json_t *doc = stat_json(gen, LOAD, runs[r], "sleep 0.1");
		if (!doc)
			continue;
		json_t *vals = values_of(doc, gen, runs[r], 1);
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			if (!strstr(runs[r], want[i].metric))
				continue;
			double v = stat_jvalue(vals, want[i].metric, 0);
			if (want[i].rel > 0)
				NEAR(v, want[i].s0, want[i].rel + slack(doc), "%s: %s S0", gen,
				     want[i].metric);
			else
				CHECK(v == want[i].s0, "%s: %s S0 %.6g, want %g", gen, want[i].metric, v,
				      want[i].s0);
		}
		json_decref(doc);
	}
}

static void listing(void)
{
	char *out, *err;
	CHECK_EQ_INT(run("", "list --metrics", &out, &err), 0, "list --metrics");
	CHECK(out && strstr(out, "== SNB-EP metrics ==") && strstr(out, "== Nehalem-EP metrics ==") &&
	      strstr(out, "== Westmere-EP metrics =="), "each generation under its title");
	free(out), free(err);
	CHECK_EQ_INT(run("", "list --metrics --json nhm", &out, &err), 0, "list --metrics --json nhm");
	json_error_t je;
	json_t *doc = out ? json_loads(out, 0, &je) : NULL;
	int n = 0, other = 0, gq_wt = 0;
	size_t i, j;
	json_t *g, *m;
	json_array_foreach(json_object_get(doc, "groups"), i, g) {
		other += strcmp(json_string_value(json_object_get(g, "generation")), "nhm") != 0;
		json_array_foreach(json_object_get(g, "metrics"), j, m) {
			n++;
			gq_wt += !strcmp(json_string_value(json_object_get(m, "name")), "GQ_WRITE_LATENCY");
		}
	}
	CHECK_EQ_INT(n, 28, "Nehalem-EP's metrics");
	CHECK_EQ_INT(other, 0, "groups of another generation");
	CHECK_EQ_INT(gq_wt, 1, "the write tracker latency among them");
	json_decref(doc);
	free(out), free(err);
	CHECK_EQ_INT(run("", "list --metrics --json wsm", &out, &err), 0, "list --metrics --json wsm");
	doc = out ? json_loads(out, 0, &je) : NULL;
	n = 0;
	json_array_foreach(json_object_get(doc, "groups"), i, g)
		n += (int)json_array_size(json_object_get(g, "metrics"));
	CHECK_EQ_INT(n, 27, "Westmere-EP's metrics (no write tracker latency)");
	json_decref(doc);
	free(out), free(err);
}

/* One line naming what is missing, exit 1, nothing printed on stdout. */
static void refused(const char *gen, const char *metric, const char *const *words, int nw)
{
	char env[64], args[128], *out, *err;
	snprintf(env, sizeof(env), "PMON_SIM=gen=%s", gen);
	snprintf(args, sizeof(args), "stat -M %s -- true", metric);
	int rc = run(env, args, &out, &err);
	CHECK(rc == 1, "%s: -M %s refused: exit status %d", gen, metric, rc);
	for (int w = 0; w < nw; w++)
		CHECK(err && strstr(err, words[w]), "%s -M %s: '%s' said: %s", gen, metric, words[w],
		      err ? err : "");
	CHECK(err && strchr(err, '\n') == err + strlen(err) - 1, "%s -M %s: one line: %s", gen, metric,
	      err ? err : "");
	CHECK(out && !*out, "%s -M %s: nothing counted: %s", gen, metric, out ? out : "");
	free(out), free(err);
}

static void refusals(void)
{
	/* the hint names the command that lists this machine's metrics only
	 * (pmon list --metrics alone lists every generation's) */
	const char *tor[] = { "AVG_TOR_DRD_LATENCY is a metric of SNB-EP only", "UNC_C_TOR_OCCUPANCY",
			      "Nehalem-EP", "(pmon list --metrics nhm lists this machine's)" };
	refused("nhm-ep", "AVG_TOR_DRD_LATENCY", tor, 4);
	const char *wt[] = { "GQ_WRITE_LATENCY is a metric of Nehalem-EP only",
			     "UNC_GQ_TRACKER_OCCUP:WT", "Westmere-EP",
			     "(pmon list --metrics wsm lists this machine's)" };
	refused("wsm-ep", "GQ_WRITE_LATENCY", wt, 4);
	const char *grp[] = { "pcu_freq is a metric group of SNB-EP only", "Westmere-EP",
			      "(pmon list --metrics wsm lists this machine's)" };
	refused("wsm-ep", "pcu_freq", grp, 3);
	/* and the other way: a Nehalem metric on SNB-EP */
	char *out, *err;
	int rc = run("", "stat -M UNCACHEABLE_WRITE_BYTES -- true", &out, &err);
	CHECK_EQ_INT(rc, 1, "SNB-EP: a Nehalem metric refused");
	CHECK(err && strstr(err, "Nehalem-EP or Westmere-EP only") && strstr(err, "SNB-EP") &&
	      strstr(err, "(pmon list --metrics snbep lists this machine's)"), "said: %s", err ? err : "");
	free(out), free(err);
}

/* The kernel's perf names of this uncore (one PMU "uncore" for both
 * generations): counted with the machine's own events, the same lines as
 * the metric's (load=250M: 2.5e8 / 64 lines a second of machine time). */
static void perf_names(const char *gen)
{
	char env[64], *out, *err;
	snprintf(env, sizeof(env), "PMON_SIM=gen=%s,load=" LOAD, gen);
	int rc = run(env, "stat --json -e 'uncore/qmc_normal_reads_any/,uncore/qhl_request_remote_reads/' "
		     "-- sleep 0.1", &out, &err);
	CHECK(rc == 0, "%s: pmon stat -e uncore/...: exit status %d (%s)", gen, rc, err ? err : "");
	json_error_t je;
	json_t *doc = out ? json_loads(out, 0, &je) : NULL;
	if (doc) {
		json_t *vals = json_object_get(doc, "values");
		double ms = json_number_value(json_object_get(doc, "machine_seconds"));
		double rd = stat_jvalue(vals, "uncore/qmc_normal_reads_any/", 0);
		NEAR(rd, ms * GBPS * 1e9 / 64, 0.01 + slack(doc), "%s: uncore/qmc_normal_reads_any/ S0 lines", gen);
		CHECK(stat_jvalue(vals, "uncore/qmc_normal_reads_any/", 1) == 0, "%s: none on socket 1", gen);
		CHECK(stat_jvalue(vals, "uncore/qhl_request_remote_reads/", 0) == 0, "%s: no remote reads", gen);
	} else {
		CHECK(0, "%s: perf names: JSON (%s)", gen, out ? je.text : "no output");
	}
	json_decref(doc);
	free(out), free(err);
	/* pmon encode shows the mapping: this generation's, of the two */
	snprintf(env, sizeof(env), "PMON_SIM=gen=%s", gen);
	rc = run(env, "encode 'uncore/qmc_writes_full_any/'", &out, &err);
	CHECK(rc == 0 && out && strstr(out, "nhm_unc::UNC_QMC_WRITES:FULL_ANY") &&
	      strstr(out, "wsm_unc::UNC_QMC_WRITES:FULL_ANY") && strstr(out, "ctl=0x72f"),
	      "%s: pmon encode uncore/qmc_writes_full_any/: %s", gen, out ? out : "");
	free(out), free(err);
}

/* The text table: a latency with no requests (socket 1 has no traffic) is
 * "n/a" with no unit after it; socket 0's has its unit. */
static void text_na(void)
{
	char *out, *err;
	int rc = run("PMON_SIM=gen=nhm-ep,load=" LOAD, "stat -M QHL_LOCAL_READ_LATENCY -- sleep 0.05", &out,
		     &err);
	CHECK_EQ_INT(rc, 0, "text table: exit status");
	const char *s0 = out ? strstr(out, "S0 ") : NULL, *s1 = out ? strstr(out, "S1 ") : NULL;
	const char *e0 = s0 ? strchr(s0, '\n') : NULL, *e1 = s1 ? strchr(s1, '\n') : NULL;
	CHECK(e0 && e0 - s0 > 3 && !strncmp(e0 - 3, " ns", 3), "S0's latency in ns: %.*s",
	      e0 ? (int)(e0 - s0) : 0, s0 ? s0 : "");
	CHECK(e1 && e1 - s1 > 4 && !strncmp(e1 - 4, " n/a", 4), "S1's latency n/a, no unit: '%.*s'",
	      e1 ? (int)(e1 - s1) : 0, s1 ? s1 : "");
	free(out), free(err);
}

int main(void)
{
	tool = getenv("PMON_BIN");
	if (!tool)
		tool = "build/bin/pmon";
	listing();
	text_na();
	refusals();
	mem_bw("nhm-ep");
	mem_bw("wsm-ep");
	home_and_latency("nhm-ep");
	home_and_latency("wsm-ep");
	perf_names("nhm-ep");
	perf_names("wsm-ep");
	return check_done("test_stat_nhm");
}
