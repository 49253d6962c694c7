/* test_tool.c - the pmon tool as a user runs it (build/bin/pmon, or $PMON_BIN):
 * `pmon list` lists every event and umask of the catalogue; `pmon encode`
 * succeeds for every one of them (in the complete form the list shows) and
 * prints the documented key=value line; bad names fail with a message;
 * `pmon info` describes the emulated machine; options are parsed as options
 * (--version, --help), before or after a command's operands, up to "--";
 * every usage error exits 2 with a one-line message naming what is wrong,
 * then the usage; --json output (read back with jansson) carries the same
 * facts as the text. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "pmon/pmon.h"

static const char *tool;

/* Run a command; its stdout goes to out (NUL-terminated); returns the exit status. */
static int run(const char *cmd, char **out)
{
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!f || !buf) {
		free(buf);
		*out = NULL;
		return -1;
	}
	size_t r;
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	buf[n] = 0;
	*out = buf;
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_line_form(const char *line, const char *what)
{
	const char *keys[] = { "event=", " box=", " ctl=0x", " filter=0x", " counters=" };
	const char *p = line;
	for (int k = 0; k < 5; k++) {
		const char *q = strstr(p, keys[k]);
		CHECK(q != NULL && (k > 0 || q == line), "%s: '%s' lacks %s in order", what, line, keys[k]);
		if (!q)
			return;
		p = q + strlen(keys[k]);
	}
}

static void list_covers_catalogue(void)
{
	char *out, cmd[512];
	snprintf(cmd, sizeof(cmd), "%s list", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "pmon list exit status");
	if (!out)
		return;
	int events = 0, umasks = 0, want_events = 0, want_umasks = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "  ", 2) && line[2] != ' ' && strstr(line, "::"))
			events++;
		else if (!strncmp(line, "      :", 7) && !strstr(line, "=<"))
			umasks++;
	}
	free(out);
	for (int p = 0; p < pmon_pmu_count(); p++)
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			want_events++;
			want_umasks += ei.numasks;
		}
	CHECK_EQ_INT(events, want_events, "events listed = events in the catalogue");
	CHECK_EQ_INT(umasks, want_umasks, "umasks listed = umasks in the catalogue");
	CHECK(want_events > 500, "catalogue size %d", want_events);
	/* a pattern narrows the list; an unmatched one fails */
	snprintf(cmd, sizeof(cmd), "%s list 'snbep_unc_imc0::*CAS*'", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "pmon list PATTERN");
	if (out) {
		CHECK(strstr(out, "snbep_unc_imc0::UNC_M_CAS_COUNT") != NULL, "pattern finds CAS_COUNT");
		CHECK(strstr(out, "UNC_M_ACT_COUNT") == NULL, "pattern excludes ACT_COUNT");
		free(out);
	}
	snprintf(cmd, sizeof(cmd), "%s list NO_SUCH_THING 2>/dev/null", tool);
	CHECK(run(cmd, &out) != 0, "unmatched pattern fails");
	free(out);
}

/* Every event and every umask, in the complete form, through `pmon encode`. */
static void encode_everything(void)
{
	size_t cap = 1 << 20, n = 0;
	char *cmd = malloc(cap);
	char name[PMON_MAX_NAME];
	int names = 0, lines = 0, bad = 0, hints = 0, batches = 0;
	n = (size_t)snprintf(cmd, cap, "%s encode", tool);
	for (int p = 0; p < pmon_pmu_count(); p++)
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			for (int u = -1; u < ei.numasks; u++) {
				int rc = pmon_event_example(p, e, u, name, sizeof(name));
				if (rc) {
					bad++;
					continue;
				}
				if (n + strlen(name) + 8 >= cap) {
					cap *= 2;
					cmd = realloc(cmd, cap);
				}
				n += (size_t)snprintf(cmd + n, cap - n, " '%s'", name);
				names++;
				/* keep each command line reasonable */
				if (n > 100000) {
					char *out;
					CHECK_EQ_INT(run(cmd, &out), 0, "pmon encode batch");
					batches++;
					for (char *l = out ? strtok(out, "\n") : NULL; l; l = strtok(NULL, "\n")) {
						if (!strncmp(l, "hint: ", 6)) {
							hints++;
							continue;
						}
						lines++;
						check_line_form(l, "encode");
					}
					free(out);
					n = (size_t)snprintf(cmd, cap, "%s encode", tool);
				}
			}
		}
	if (n > strlen(tool) + 8) {
		char *out;
		CHECK_EQ_INT(run(cmd, &out), 0, "pmon encode last batch");
		batches++;
		for (char *l = out ? strtok(out, "\n") : NULL; l; l = strtok(NULL, "\n")) {
			if (!strncmp(l, "hint: ", 6)) {   /* the PAPI hint, last */
				hints++;
				continue;
			}
			lines++;
			check_line_form(l, "encode");
		}
		free(out);
	}
	free(cmd);
	CHECK_EQ_INT(bad, 0, "every event and umask has a complete form");
	CHECK_EQ_INT(lines, names, "one encode line per name");
	CHECK_EQ_INT(hints, batches, "one PAPI hint per command");
	printf("tool: pmon encode accepted %d names (every event and umask of pmon list)\n", names);
}

static void encode_exact(void)
{
	char *out, cmd[1024];
	struct { const char *in, *line; } cases[] = {
		{ "snbep_unc_imc0::UNC_M_CAS_COUNT:RD",
		  "event=snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0 box=snbep_unc_imc0 ctl=0x304 filter=0x0 counters=0-3 unit=\"64-byte lines\"" },
		{ "snbep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1",
		  "event=snbep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1 box=snbep_unc_cbo2 ctl=0x334 filter=0x200000 counters=0-1" },
		{ "snbep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES:ff=16",
		  "event=snbep_unc_pcu::UNC_P_FREQ_BAND1_CYCLES:ff=16:socket=0 box=snbep_unc_pcu ctl=0xc filter=0x1000 counters=0-3 unit=\"PCU clock cycles (800 MHz)\"" },
		{ "snbep_unc_ubo::UNC_U_CLOCKTICKS",
		  "event=snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=0 box=snbep_unc_ubo ctl=0x0 filter=0x0 counters=fixed unit=\"uncore clock cycles\"" },
		{ "snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=3",
		  "event=snb_ep::OFFCORE_RESPONSE_0:DMND_RFO:ANY_RESPONSE:cpu=3 box=snb_ep ctl=0x301b7 filter=0x10002 counters=0-3" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s encode '%s'", tool, cases[i].in);
		CHECK_EQ_INT(run(cmd, &out), 0, cases[i].in);
		if (!out)
			continue;
		char *nl = strchr(out, '\n');
		if (nl)
			*nl = 0;
		CHECK(!strcmp(out, cases[i].line), "encode %s:\n  got  %s\n  want %s", cases[i].in, out,
		      cases[i].line);
		/* then what to type in PAPI */
		char hint[512];
		snprintf(hint, sizeof(hint), "hint: in PAPI, name it pmon:::%s ", cases[i].in);
		CHECK(nl && !strncmp(nl + 1, hint, strlen(hint)), "encode %s: hint '%s'", cases[i].in,
		      nl ? nl + 1 : "");
		free(out);
	}
	/* bad input: non-zero exit and a message naming the problem */
	struct { const char *in, *msg; } bad[] = {
		{ "snbep_unc_cbo9::UNC_C_CLOCKTICKS", "instances 0-7" },
		{ "snbep_unc_imc0::UNC_M_CAS_COUNT:RDX", "umask 'RDX' is not valid" },
		{ "snbep_unc_pcu::UNC_P_FREQ_BAND0_CYCLES:ff=256", "out of range" },
		{ "snbep_unc_imc0::UNC_M_CAS_COUNT:nf=1", "modifier 'nf'" },
		{ "snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:cpu=0", "response" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s encode '%s' 2>&1", tool, bad[i].in);
		CHECK(run(cmd, &out) != 0, "%s must fail", bad[i].in);
		CHECK(out && strstr(out, bad[i].msg), "%s: message '%s' lacks '%s'", bad[i].in,
		      out ? out : "", bad[i].msg);
		free(out);
	}
}

static void info_sim(void)
{
	char *out, cmd[512];
	snprintf(cmd, sizeof(cmd), "PMON_BACKEND=sim PMON_SIM=sockets=2,cores=6 %s info", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "pmon info on the emulated machine");
	if (!out)
		return;
	CHECK(strstr(out, "backend: sim") != NULL, "info names the backend");
	CHECK(strstr(out, "family 6 model 45") != NULL, "info names the CPU model");
	CHECK(strstr(out, "sockets: 2, cpus: 24") != NULL, "info gives the topology");
	CHECK(strstr(out, "snbep_unc_cbo5 ") != NULL, "six CBos present");
	CHECK(strstr(out, "snbep_unc_cbo6 ") == NULL, "no seventh CBo on a 6-core part");
	CHECK(strstr(out, "snbep_unc_imc0     pci 0000:3f:10.0") != NULL, "iMC channel 0 address");
	CHECK(strstr(out, "snbep_unc_qpi1     pci 0000:7f:09.2 (+ match/mask function)") != NULL,
	      "QPI port 1 of socket 1 with its match/mask function");
	free(out);
	snprintf(cmd, sizeof(cmd), "PMON_BACKEND=sim PMON_SIM=cores=99 %s info 2>&1", tool);
	CHECK(run(cmd, &out) != 0, "a bad PMON_SIM fails");
	CHECK(out && strstr(out, "cores") != NULL, "the message names the key: %s", out ? out : "");
	free(out);
}

/* Run cmd and parse its stdout as JSON; NULL (with a failed check) if not. */
static json_t *run_json(const char *cmd)
{
	char *out;
	json_error_t jerr;
	json_t *doc = NULL;
	CHECK_EQ_INT(run(cmd, &out), 0, cmd);
	if (out) {
		doc = json_loads(out, 0, &jerr);
		CHECK(doc != NULL, "%s: not JSON (line %d: %s)", cmd, jerr.line, jerr.text);
		free(out);
	}
	return doc;
}

static void options(void)
{
	char *out, cmd[512], want[64];
	snprintf(cmd, sizeof(cmd), "%s --version", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "--version exit status");
	snprintf(want, sizeof(want), "pmon %d.%d.%d\n", PMON_VERSION_MAJOR, PMON_VERSION_MINOR,
		 PMON_VERSION_PATCH);
	CHECK(out && !strcmp(out, want), "--version prints '%s', not '%s'", want, out ? out : "");
	CHECK(!strcmp(PMON_VERSION_STRING, "0.1.0") && PMON_VERSION == 100, "version macros agree");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --help", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "--help exit status");
	CHECK(out && strstr(out, "pmon list") && strstr(out, "pmon encode") && strstr(out, "pmon info"),
	      "--help names the commands");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s encode --help", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "encode --help exit status");
	CHECK(out && strstr(out, "usage: pmon encode"), "encode --help: %s", out ? out : "");
	free(out);
}

/* Run the tool with args; its stdout goes to *out and its stderr to *err
 * (both NUL-terminated, to be freed); returns the exit status. */
static int run_split(const char *args, char **out, char **err)
{
	char cmd[1024], path[] = "/tmp/test_tool_errXXXXXX";
	int fd = mkstemp(path), rc;
	*err = NULL;
	if (fd < 0) {
		*out = NULL;
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s %s 2>%s", tool, args, path);
	rc = run(cmd, out);
	FILE *f = fopen(path, "r");
	if (f) {
		size_t cap = 1 << 16, n = fread(*err = calloc(1, cap), 1, cap - 1, f);
		(*err)[n] = 0;
		fclose(f);
	}
	unlink(path);
	return rc;
}

/* Every usage error: exit status 2, nothing on stdout, and on stderr first
 * one line saying what is wrong (naming the bad option, value or operand),
 * then the usage. */
static void usage_errors(void)
{
	struct { const char *args, *line; } bad[] = {
		/* bad options, at the top and in each command */
		{ "--frobnicate", "pmon: unrecognized option '--frobnicate'" },
		{ "--json list", "pmon: unrecognized option '--json'" },
		{ "list --frobnicate", "pmon list: unrecognized option '--frobnicate'" },
		{ "list CAS --frobnicate", "pmon list: unrecognized option '--frobnicate'" },
		{ "encode -x snbep_unc_ubo::UNC_U_CLOCKTICKS", "pmon encode: invalid option -- 'x'" },
		{ "encode snbep_unc_ubo::UNC_U_CLOCKTICKS -x", "pmon encode: invalid option -- 'x'" },
		{ "info --bogus", "pmon info: unrecognized option '--bogus'" },
		{ "reset --bogus", "pmon reset: unrecognized option '--bogus'" },
		/* an option of another command */
		{ "info --socket 1", "pmon info: --socket is an option of reset only" },
		{ "info -s 1", "pmon info: --socket is an option of reset only" },
		{ "list --socket=0 CAS", "pmon list: --socket is an option of reset only" },
		{ "encode snbep_unc_ubo::UNC_U_CLOCKTICKS --socket 0",
		  "pmon encode: --socket is an option of reset only" },
		{ "reset --json", "pmon reset: --json is an option of list, encode and info only" },
		/* bad and missing values */
		{ "reset --socket abc", "pmon reset: --socket 'abc' is not a socket number (0, 1, ...)" },
		{ "reset --socket=", "pmon reset: --socket '' is not a socket number (0, 1, ...)" },
		{ "reset --socket -1", "pmon reset: --socket '-1' is not a socket number (0, 1, ...)" },
		{ "reset --socket 1x", "pmon reset: --socket '1x' is not a socket number (0, 1, ...)" },
		{ "reset --socket 4294967296",
		  "pmon reset: --socket '4294967296' is not a socket number (0, 1, ...)" },
		{ "reset --socket", "pmon reset: option '--socket' requires an argument" },
		{ "reset -s", "pmon reset: option requires an argument -- 's'" },
		/* missing and extra operands */
		{ "", "pmon: no command given" },
		{ "frob", "pmon: unknown command 'frob'" },
		{ "encode", "pmon encode: give at least one EVENT" },
		{ "encode --json", "pmon encode: give at least one EVENT" },
		{ "list CAS ACT", "pmon list: unexpected operand 'ACT': list takes one PATTERN at most" },
		{ "list CAS --json ACT",
		  "pmon list: unexpected operand 'ACT': list takes one PATTERN at most" },
		{ "info extra", "pmon info: unexpected operand 'extra': info takes no operand" },
		{ "info --json extra", "pmon info: unexpected operand 'extra': info takes no operand" },
		{ "reset 1", "pmon reset: unexpected operand '1': reset takes no operand "
			     "(--socket N chooses one socket)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *out, *err;
		int rc = run_split(bad[i].args, &out, &err);
		CHECK(rc == 2, "'pmon %s' exit status %d, not 2", bad[i].args, rc);
		CHECK(out && !out[0], "'pmon %s' wrote on stdout: %s", bad[i].args, out ? out : "");
		char *nl = err ? strchr(err, '\n') : NULL;
		if (nl)
			*nl = 0;
		CHECK(nl && !strcmp(err, bad[i].line), "'pmon %s': stderr's first line\n  is   '%s'\n  want '%s'",
		      bad[i].args, err ? err : "", bad[i].line);
		CHECK(nl && !strncmp(nl + 1, "usage: pmon", 11), "'pmon %s': the usage follows the message",
		      bad[i].args);
		free(out);
		free(err);
	}
}

/* Within a command, options and operands come in any order; "--" ends the
 * options; the top level still stops at the command's name. */
static void options_anywhere(void)
{
	char cmd[512], *out, *err;
	json_t *doc, *ev;
	const char *s;
	/* --json after the event, and between two events */
	snprintf(cmd, sizeof(cmd), "%s encode snbep_unc_imc0::UNC_M_CAS_COUNT:RD --json", tool);
	doc = run_json(cmd);
	ev = json_object_get(doc, "events");
	CHECK_EQ_INT((int)json_array_size(ev), 1, "encode EVENT --json: one event");
	s = json_string_value(json_object_get(json_array_get(ev, 0), "ctl"));
	/* UNC_M_CAS_COUNT is event 0x04 and RD its umask 0x03 in the uncore guide: ctl 0x0304 */
	CHECK(s && !strcmp(s, "0x304"), "encode EVENT --json: ctl %s", s ? s : "(none)");
	json_decref(doc);
	snprintf(cmd, sizeof(cmd), "%s encode snbep_unc_imc0::UNC_M_CAS_COUNT:RD -j "
		 "snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1", tool);
	doc = run_json(cmd);
	ev = json_object_get(doc, "events");
	CHECK_EQ_INT((int)json_array_size(ev), 2, "encode EVENT -j EVENT: two events");
	s = json_string_value(json_object_get(json_array_get(ev, 1), "event"));
	CHECK(s && !strcmp(s, "snbep_unc_imc1::UNC_M_CAS_COUNT:WR:socket=1"),
	      "encode EVENT -j EVENT: the second in its place (%s)", s ? s : "(none)");
	json_decref(doc);
	/* nothing on stderr when the option follows the operand */
	CHECK_EQ_INT(run_split("encode snbep_unc_imc0::UNC_M_CAS_COUNT:RD --json", &out, &err), 0,
		     "encode EVENT --json exit status");
	CHECK(err && !err[0], "encode EVENT --json: stderr '%s'", err ? err : "");
	free(out);
	free(err);
	/* list PATTERN --json: exactly the catalogue's events whose name holds it */
	snprintf(cmd, sizeof(cmd), "%s list CAS_COUNT --json", tool);
	doc = run_json(cmd);
	json_t *pmu, *e;
	size_t i, j;
	int listed = 0, want = 0, wrong = 0;
	json_array_foreach(json_object_get(doc, "pmus"), i, pmu) {
		json_array_foreach(json_object_get(pmu, "events"), j, e) {
			s = json_string_value(json_object_get(e, "full_name"));
			listed++;
			wrong += !s || !strcasestr(s, "CAS_COUNT");
		}
	}
	json_decref(doc);
	for (int p = 0; p < pmon_pmu_count(); p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		for (int k = 0; k < pmon_event_count(p); k++) {
			pmon_event_info_t ei;
			char full[PMON_MAX_NAME];
			pmon_event_get(p, k, &ei);
			snprintf(full, sizeof(full), "%s::%s", pi.name, ei.name);
			want += strcasestr(full, "CAS_COUNT") != NULL;
		}
	}
	CHECK(want >= 4, "the catalogue has CAS_COUNT on each iMC channel (%d)", want);
	CHECK_EQ_INT(listed, want, "list CAS_COUNT --json: events listed");
	CHECK_EQ_INT(wrong, 0, "list CAS_COUNT --json: events not matching the pattern");
	/* --help after an operand is help */
	CHECK_EQ_INT(run_split("encode snbep_unc_ubo::UNC_U_CLOCKTICKS --help", &out, &err), 0,
		     "encode EVENT --help exit status");
	CHECK(out && !strncmp(out, "usage: pmon encode", 18), "encode EVENT --help: %s", out ? out : "");
	free(out);
	free(err);
	/* after "--" an option-like word is an operand: a pattern or a name */
	CHECK_EQ_INT(run_split("list -- --json", &out, &err), 1, "list -- --json exit status");
	CHECK(out && !out[0] && err && !strcmp(err, "pmon: no event matches '--json'\n"),
	      "list -- --json: '--json' is the pattern: %s", err ? err : "");
	free(out);
	free(err);
	CHECK_EQ_INT(run_split("encode --json -- --json", &out, &err), 1,
		     "encode --json -- --json exit status");
	CHECK(err && !strncmp(err, "pmon: --json: '--json' names no PMU", 35),
	      "encode -- --json: '--json' is a name: %s", err ? err : "");
	doc = out ? json_loads(out, 0, NULL) : NULL;
	json_t *bad = json_array_get(json_object_get(doc, "events"), 0);
	s = json_string_value(json_object_get(bad, "error"));
	CHECK(doc && json_array_size(json_object_get(doc, "events")) == 1 && s &&
	      strstr(s, "names no PMU"), "encode --json -- --json: one JSON document, the event with "
	      "its error: %s", out ? out : "");
	s = json_string_value(json_object_get(bad, "code"));
	CHECK(s && !strcmp(s, "PMON_ENOEVNT"), "error code %s", s ? s : "");
	json_decref(doc);
	free(out);
	free(err);
	/* a failing event among good ones is in the document, not dropped */
	CHECK_EQ_INT(run_split("encode --json snbep_unc_ubo::UNC_U_CLOCKTICKS bogus::X "
			       "snbep_unc_imc0::UNC_M_CAS_COUNT:RD", &out, &err), 1, "encode: one bad");
	doc = out ? json_loads(out, 0, NULL) : NULL;
	CHECK_EQ_INT((int)json_array_size(json_object_get(doc, "events")), 3, "three entries");
	CHECK(json_object_get(json_array_get(json_object_get(doc, "events"), 1), "error") != NULL,
	      "the bad one carries its error");
	json_decref(doc);
	free(out);
	free(err);
	/* list --json with nothing matching: valid JSON with the error */
	CHECK_EQ_INT(run_split("list --json no_such_thing_anywhere", &out, &err), 1, "list --json none");
	doc = out ? json_loads(out, 0, NULL) : NULL;
	s = json_string_value(json_object_get(doc, "error"));
	CHECK(doc && json_array_size(json_object_get(doc, "pmus")) == 0 && s &&
	      strstr(s, "no_such_thing_anywhere"), "list --json none: %s", out ? out : "");
	json_decref(doc);
	free(out);
	free(err);
}

/* The options of `pmon --help` ("  -j, --json ...") are those of pmon(1)
 * (".BR \\-j ", " \\-\\-json"), both ways. */
static void help_matches_man(void)
{
	char cmd[512], *out, *man = NULL, want[128];
	int in_help = 0, in_man = 0;
	FILE *f = fopen("doc/man/pmon.1", "r");
	CHECK(f != NULL, "doc/man/pmon.1 readable from the source tree");
	if (!f)
		return;
	man = calloc(1, 1 << 16);
	size_t n = fread(man, 1, (1 << 16) - 1, f);
	man[n] = 0;
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s --help", tool);
	CHECK_EQ_INT(run(cmd, &out), 0, "--help exit status");
	for (char *l = out ? strtok(out, "\n") : NULL; l; l = strtok(NULL, "\n")) {
		char s, lng[32];
		if (sscanf(l, "  -%c, --%31[a-z]", &s, lng) != 2)
			continue;
		in_help++;
		snprintf(want, sizeof(want), ".BR \\-%c \", \" \\-\\-%s", s, lng);
		CHECK(strstr(man, want) != NULL, "pmon(1) lacks option -%c, --%s of --help", s, lng);
	}
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --help", tool);
	run(cmd, &out);
	for (char *m = strstr(man, ".BR \\-"); m; m = strstr(m + 1, ".BR \\-")) {
		char s, lng[32], line[64];
		if (sscanf(m, ".BR \\-%c \", \" \\-\\-%31[a-z]", &s, lng) != 2)
			continue;
		in_man++;
		snprintf(line, sizeof(line), "  -%c, --%s ", s, lng);
		CHECK(out && strstr(out, line), "--help lacks option -%c, --%s of pmon(1)", s, lng);
	}
	free(out);
	free(man);
	CHECK_EQ_INT(in_help, 5, "--help lists -j, -s, -m, -h, -V");
	CHECK_EQ_INT(in_man, in_help, "pmon(1) lists as many options as --help");
}

/* list --json: every event and umask of the catalogue, once. */
static void list_json(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "%s list --json", tool);
	json_t *doc = run_json(cmd), *pmu, *ev;
	size_t i, j;
	int events = 0, umasks = 0, want_events = 0, want_umasks = 0, cas_ok = 0;
	json_array_foreach(json_object_get(doc, "pmus"), i, pmu) {
		json_array_foreach(json_object_get(pmu, "events"), j, ev) {
			events++;
			umasks += (int)json_array_size(json_object_get(ev, "umasks"));
			if (!strcmp(json_string_value(json_object_get(ev, "full_name")) ? json_string_value(json_object_get(ev, "full_name")) : "",
				    "snbep_unc_imc0::UNC_M_CAS_COUNT"))
				cas_ok = json_array_size(json_object_get(ev, "counters")) == 4 &&
					 json_is_true(json_object_get(ev, "modeled"));
		}
	}
	for (int p = 0; p < pmon_pmu_count(); p++)
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			want_events++;
			want_umasks += ei.numasks;
		}
	CHECK_EQ_INT(events, want_events, "JSON events = catalogue events");
	CHECK_EQ_INT(umasks, want_umasks, "JSON umasks = catalogue umasks");
	CHECK(cas_ok, "imc0 CAS_COUNT: counters 0-3, modeled");
	json_decref(doc);
}

/* encode --json gives the values of the text line. */
static void encode_json(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd),
		 "%s encode --json snbep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1 "
		 "snbep_unc_ubo::UNC_U_CLOCKTICKS", tool);
	json_t *doc = run_json(cmd);
	json_t *ev = json_object_get(doc, "events");
	CHECK_EQ_INT((int)json_array_size(ev), 2, "two events");
	json_t *a = json_array_get(ev, 0), *b = json_array_get(ev, 1);
	const char *s;
	s = json_string_value(json_object_get(a, "event"));
	CHECK(s && !strcmp(s, "snbep_unc_cbo2::UNC_C_LLC_LOOKUP:DATA_READ:STATE_M:socket=1"), "event %s",
	      s ? s : "");
	s = json_string_value(json_object_get(a, "ctl"));
	CHECK(s && !strcmp(s, "0x334"), "ctl %s", s ? s : "");
	s = json_string_value(json_object_get(a, "filter"));
	CHECK(s && !strcmp(s, "0x200000"), "filter %s", s ? s : "");
	CHECK_EQ_INT((int)json_array_size(json_object_get(a, "counters")), 2, "CBo LLC_LOOKUP: counters 0-1");
	/* counters is always a list; the fixed counter is said by fixed_counter */
	CHECK(json_is_array(json_object_get(b, "counters")) &&
	      json_array_size(json_object_get(b, "counters")) == 0, "UBox clockticks: no general counter");
	CHECK(json_is_true(json_object_get(b, "fixed_counter")), "UBox clockticks on the fixed counter");
	CHECK(json_is_false(json_object_get(a, "fixed_counter")), "LLC_LOOKUP not on a fixed counter");
	/* event code, umask and unit */
	s = json_string_value(json_object_get(a, "event_code"));
	CHECK(s && !strcmp(s, "0x34"), "event_code %s", s ? s : "");
	s = json_string_value(json_object_get(a, "umask"));
	CHECK(s && !strcmp(s, "0x3"), "umask %s", s ? s : "");
	s = json_string_value(json_object_get(b, "unit"));
	CHECK(s && !strcmp(s, "uncore clock cycles"), "UBox clockticks unit %s", s ? s : "");
	json_decref(doc);

	/* a name of every channel: the sum of four encodings, perf's scale */
	snprintf(cmd, sizeof(cmd), "%s encode --json uncore_imc/cas_count_read/", tool);
	doc = run_json(cmd);
	a = json_array_get(json_object_get(doc, "events"), 0);
	CHECK(json_is_true(json_object_get(a, "summed")), "uncore_imc//: summed");
	CHECK_EQ_INT((int)json_array_size(json_object_get(a, "encodings")), 4, "uncore_imc//: 4 boxes");
	s = json_string_value(json_object_get(a, "form"));
	CHECK(s && !strcmp(s, "perf"), "form %s", s ? s : "");
	CHECK(json_real_value(json_object_get(a, "perf_scale")) == 64.0 / 1048576, "perf scale");
	s = json_string_value(json_object_get(a, "papi_name"));
	CHECK(s && !strcmp(s, "pmon:::uncore_imc/cas_count_read/"), "papi_name %s", s ? s : "");
	s = json_string_value(json_object_get(json_array_get(json_object_get(a, "encodings"), 3), "event"));
	CHECK(s && !strcmp(s, "snbep_unc_imc3::UNC_M_CAS_COUNT:RD:socket=0"), "fourth box %s", s ? s : "");
	json_decref(doc);
}

/* info --json on a 6-core emulated machine. */
static void info_json(void)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "PMON_BACKEND=sim PMON_SIM=sockets=2,cores=6 %s info --json", tool);
	json_t *doc = run_json(cmd), *sock, *box;
	size_t i, j;
	int cbos = 0, imc0 = 0, qpi1 = 0;
	CHECK_EQ_INT((int)json_integer_value(json_object_get(doc, "sockets")), 2, "two sockets");
	CHECK_EQ_INT((int)json_integer_value(json_object_get(doc, "cpus")), 24, "2 x 6 x 2 CPUs");
	json_array_foreach(json_object_get(doc, "socket_list"), i, sock) {
		json_array_foreach(json_object_get(sock, "boxes"), j, box) {
			const char *pmu = json_string_value(json_object_get(box, "pmu"));
			const char *addr = json_string_value(json_object_get(box, "address"));
			if (!pmu)
				continue;
			cbos += !strncmp(pmu, "snbep_unc_cbo", 13);
			if (i == 0 && !strcmp(pmu, "snbep_unc_imc0"))
				imc0 = addr && !strcmp(addr, "0000:3f:10.0");
			if (i == 1 && !strcmp(pmu, "snbep_unc_qpi1"))
				qpi1 = addr && !strcmp(addr, "0000:7f:09.2") &&
				       json_is_true(json_object_get(box, "match_mask_function"));
		}
	}
	CHECK_EQ_INT(cbos, 2 * 6, "six CBos per socket");
	CHECK(imc0, "iMC channel 0 of socket 0 at 0000:3f:10.0");
	CHECK(qpi1, "QPI port 1 of socket 1 at 0000:7f:09.2 with its match/mask function");
	json_decref(doc);
}

int main(void)
{
	tool = getenv("PMON_BIN");
	if (!tool)
		tool = "build/bin/pmon";
	list_covers_catalogue();
	encode_exact();
	encode_everything();
	info_sim();
	options();
	usage_errors();
	options_anywhere();
	help_matches_man();
	list_json();
	encode_json();
	info_json();
	return check_done("test_tool");
}
