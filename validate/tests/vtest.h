/*
 * vtest.h - what the validation suite's tests that run pmon-validate share:
 * running it with its output captured, and reading the report.json of a run.
 */
#ifndef PMON_VTEST_H
#define PMON_VTEST_H

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <jansson.h>

#include "check.h"

/* outdir/sub/report.json, parsed; NULL (and a failed check) if it is not
 * there or not JSON. */
static inline json_t *vtest_load(const char *outdir, const char *sub)
{
	char path[4096];
	json_error_t e;
	snprintf(path, sizeof(path), "%s/%s/report.json", outdir, sub);
	json_t *j = json_load_file(path, 0, &e);
	CHECK(j != NULL, "%s: %s", path, j ? "" : e.text);
	return j;
}

extern char **environ;

/* Run prog with the fixed arguments pre, then "--output outdir/sub", then
 * args (both NULL-terminated), its stdout in outdir/sub.out; the command
 * line on stderr after tag.  *text (when text is not NULL): that output,
 * malloc'd, or NULL.  The exit status, or -1. */
static inline int vtest_run(const char *prog, const char *outdir, const char *tag, const char *sub,
			    const char *const *pre, const char *const *args, char **text)
{
	char out[4096], path[4200];
	const char *argv[32];
	int n = 0, status;
	pid_t pid;
	posix_spawn_file_actions_t fa;

	if (text)
		*text = NULL;
	snprintf(out, sizeof(out), "%s/%s", outdir, sub);
	snprintf(path, sizeof(path), "%s/%s.out", outdir, sub);
	argv[n++] = prog;
	for (int i = 0; pre[i] && n < 8; i++)
		argv[n++] = pre[i];
	argv[n++] = "--output";
	argv[n++] = out;
	for (int i = 0; args[i] && n < 30; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fprintf(stderr, "%s: run %s:", tag, sub);
	for (int i = 1; i < n; i++)
		fprintf(stderr, " %s", argv[i]);
	fprintf(stderr, "\n");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int rc = posix_spawn(&pid, prog, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	FILE *f = text ? fopen(path, "r") : NULL;
	if (f) {
		size_t cap = 1 << 20, len;
		*text = malloc(cap);
		len = *text ? fread(*text, 1, cap - 1, f) : 0;
		if (*text)
			(*text)[len] = 0;
		fclose(f);
	}
	return WEXITSTATUS(status);
}

#endif
