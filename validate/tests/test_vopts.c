/*
 * test_vopts.c - what pmon-validate ($PMON_VALIDATE) refuses before running
 * anything, and what it sets itself:
 *   - --idle-ms, --repeat and --break-once out of range or alone: exit 2,
 *     one line naming the option, no kernel run; clock=manual|auto:
 *     replaced by wall with a note, and the clock checks pass;
 *   - --remote equal to --socket, an empty --kernels, an output directory
 *     that cannot be made: exit 2 before any kernel runs;
 *   - $PMON_BACKEND: sim is used without advice to set it; msr where the
 *     hardware is not usable fails (exit 2); foo is refused naming the valid
 *     values, as libpmon does; --backend wins over it.
 * Reports go under $PMON_VALIDATE_OUT/opts-*.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <pmon/pmon.h>

#include "check.h"
#include "vtest.h"

extern char **environ;

#define QSHAPE "cores=4,llc=2M,l1=16K,l2=64K"

static const char *prog, *outdir;
static char err[16384];                 /* the last run's stderr */

/* Run prog with args; the environment is ours less PMON_SIM and
 * PMON_BACKEND, plus env (NULL-ended "K=V" list).  Returns the exit status,
 * -1 if it did not exit; stderr in err. */
static int run(const char *const *env, const char *const *args)
{
	const char *argv[32], *envp[512];
	char errpath[256];
	int n = 0, ne = 0, status;
	pid_t pid;
	posix_spawn_file_actions_t fa;

	argv[n++] = prog;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	for (char **e = environ; *e && ne < 500; e++)
		if (strncmp(*e, "PMON_SIM=", 9) && strncmp(*e, "PMON_BACKEND=", 13))
			envp[ne++] = *e;
	for (int i = 0; env && env[i] && ne < 510; i++)
		envp[ne++] = env[i];
	envp[ne] = NULL;
	fprintf(stderr, "test_vopts: run");
	for (int i = 0; env && env[i]; i++)
		fprintf(stderr, " %s", env[i]);
	for (int i = 0; i < n; i++)
		fprintf(stderr, " %s", argv[i]);
	fprintf(stderr, "\n");
	snprintf(errpath, sizeof(errpath), "%s/opts-stderr-%ld", outdir, (long)getpid());
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	int rc = posix_spawn(&pid, prog, &fa, NULL, (char *const *)argv, (char *const *)envp);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	err[0] = 0;
	FILE *f = fopen(errpath, "r");
	if (f) {
		size_t got = fread(err, 1, sizeof(err) - 1, f);
		err[got] = 0;
		fclose(f);
	}
	unlink(errpath);
	return WEXITSTATUS(status);
}

/* Refused before anything ran: exit 2, no kernel started, the first line
 * of stderr holds every piece of want (NULL-ended). */
static void refused(const char *what, const char *const *env, const char *const *args,
		    const char *const *want)
{
	int rc = run(env, args);
	CHECK_EQ_INT(rc, 2, what);
	CHECK(strstr(err, "[1/") == NULL, "%s: no kernel ran", what);
	char first[1024];
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(err, "\n"), err);
	for (int i = 0; want[i]; i++)
		CHECK(strstr(first, want[i]) != NULL, "%s: first line '%s' names '%s'", what, first, want[i]);
}

static json_t *load(const char *sub)
{
	return vtest_load(outdir, sub);
}

/* The clock kernel under a clock= it must replace: 6 clock checks, all
 * PASS, and a note naming the key. */
static void clock_replaced(const char *sub, const char *const *env, const char *shape, const char *key)
{
	char out[4096], sh[256];
	snprintf(out, sizeof(out), "%s/%s", outdir, sub);
	snprintf(sh, sizeof(sh), "--shape=%s", shape);
	const char *args[] = { "--quick", "--backend=sim", "--kernels=clock", "-o", out, shape ? sh : NULL, NULL };
	CHECK_EQ_INT(run(env, args), 0, sub);
	json_t *j = load(sub);
	if (!j)
		return;
	size_t i, pass = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c)
		pass += !strcmp(json_string_value(json_object_get(c, "kernel")), "clock") &&
			!strcmp(json_string_value(json_object_get(c, "result")), "PASS");
	CHECK_EQ_INT(pass, 6, "clock checks passing");
	const char *note = json_string_value(json_array_get(json_object_get(j, "notes"), 0));
	CHECK(note && strstr(note, key) && strstr(note, "clock=wall"), "%s: note '%s'", sub, note ? note : "");
	CHECK(strstr(err, key) != NULL, "%s: stderr names %s", sub, key);
	json_decref(j);
}

int main(void)
{
	prog = getenv("PMON_VALIDATE");
	outdir = getenv("PMON_VALIDATE_OUT");
	if (!prog || !outdir) {
		fprintf(stderr, "test_vopts: set PMON_VALIDATE (the program) and PMON_VALIDATE_OUT\n");
		CHECK(0, "environment");
		return check_done("test_vopts");
	}
	char cmd[4200], out[4096];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", outdir);
	CHECK(system(cmd) == 0, "mkdir %s", outdir);
	snprintf(out, sizeof(out), "%s/opts-refused", outdir);

	/* The baseline's and --repeat's values, refused before anything runs
	 * (load= and noise= are accepted: test_vbase runs them). */
	const char *idle[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--idle-ms=-1", "-o", out, NULL };
	refused("--idle-ms=-1", NULL, idle, (const char *const[]){ "--idle-ms=-1", "0..1000", NULL });
	const char *rep0[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--repeat=0", "-o", out, NULL };
	refused("--repeat=0", NULL, rep0, (const char *const[]){ "--repeat=0", "1..99", NULL });
	const char *once[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--break=umask", "--break-once",
			       "-o", out, NULL };
	refused("--break-once without --repeat", NULL, once, (const char *const[]){ "--break-once", "--repeat", NULL });

	/* clock=: the suite's clock checks need wall time. */
	const char *auto_env[] = { "PMON_SIM=" QSHAPE ",clock=auto", NULL };
	clock_replaced("opts-clock-auto", auto_env, NULL, "$PMON_SIM clock=auto");
	clock_replaced("opts-clock-manual", NULL, QSHAPE ",clock=manual", "--shape clock=manual");

	/* Options refused before anything runs. */
	const char *remote[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--remote=0", "-o", out, NULL };
	refused("--remote=0 on socket 0", NULL, remote, (const char *const[]){ "--remote=0", "local socket", NULL });
	const char *remote1[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--socket=1", "--remote=1", "-o", out, NULL };
	refused("--remote=1 on socket 1", NULL, remote1, (const char *const[]){ "--remote=1", NULL });
	const char *nok[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--kernels=", "-o", out, NULL };
	refused("--kernels=", NULL, nok, (const char *const[]){ "--kernels", "no kernel", NULL });
	const char *nodir[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "-o", "/nonexistent/dir/x", NULL };
	refused("-o /nonexistent/dir/x", NULL, nodir, (const char *const[]){ "/nonexistent/dir/x", NULL });

	/* $PMON_BACKEND. */
	const char *clock[] = { "--quick", "--shape=" QSHAPE, "--kernels=clock", "-o", out, NULL };
	const char *sim_env[] = { "PMON_BACKEND=sim", NULL };
	CHECK_EQ_INT(run(sim_env, clock), 0, "PMON_BACKEND=sim");
	CHECK(strstr(err, "sim backend") != NULL, "PMON_BACKEND=sim: the emulated machine");
	CHECK(strstr(err, "set PMON_BACKEND=sim") == NULL && strstr(err, "hardware not usable") == NULL,
	      "PMON_BACKEND=sim: no hardware attempt or advice: %s", err);
	const char *foo_env[] = { "PMON_BACKEND=foo", NULL };
	refused("PMON_BACKEND=foo", foo_env, clock, (const char *const[]){ "PMON_BACKEND=foo", "sim, msr or auto", NULL });
	const char *simopt[] = { "--quick", "--backend=sim", "--shape=" QSHAPE, "--kernels=clock", "-o", out, NULL };
	CHECK_EQ_INT(run(foo_env, simopt), 0, "--backend=sim wins over PMON_BACKEND=foo");
	/* msr: the hardware only.  Where libpmon cannot open it, neither can
	 * the suite, and it says so. */
	pmon_machine_t *m;
	char why[512];
	if (pmon_machine_open(&m, "msr", why, sizeof(why)) == 0) {
		pmon_machine_close(m);
		fprintf(stderr, "test_vopts: the hardware is usable here; PMON_BACKEND=msr not refused\n");
	} else {
		const char *msr_env[] = { "PMON_BACKEND=msr", NULL };
		refused("PMON_BACKEND=msr without the hardware", msr_env, clock,
			(const char *const[]){ "hardware", "not usable", NULL });
		CHECK(strstr(err, "sim backend") == NULL, "PMON_BACKEND=msr: no fallback to the emulated machine");
	}
	return check_done("test_vopts");
}
