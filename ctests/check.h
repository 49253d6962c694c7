/*
 * check.h - the tiny assertion harness of pmon's tests.
 *
 * CHECK(cond, fmt, ...) records a pass or a failure (printing the message and
 * location on failure); CHECK_EQ_U64/CHECK_EQ_INT print both values.
 * check_done() prints "N passed, N failed" and returns the exit status;
 * check_skip() ends a program that cannot run here.
 * The runner (ctests/run.sh) sums these lines over all test programs.
 */
#ifndef PMON_CHECK_H
#define PMON_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...) do { \
	if (cond) { check_passed++; } \
	else { check_failed++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

#define CHECK_EQ_U64(got, want, what) do { \
	uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
	CHECK(g_ == w_, "%s: got 0x%" PRIx64 " (%" PRIu64 "), want 0x%" PRIx64 " (%" PRIu64 ")", \
	      (what), g_, g_, w_, w_); \
} while (0)

#define CHECK_EQ_INT(got, want, what) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	CHECK(g_ == w_, "%s: got %lld, want %lld", (what), g_, w_); \
} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	fflush(stdout);
	return check_failed ? 1 : 0;
}

/* A program that cannot run here (missing data, say why) ends with this:
 * its line "<name>: skipped: <why>" and exit status CHECK_SKIP_STATUS make
 * the runner count it as skipped, never as passed.  Checks recorded before
 * still count. */
#define CHECK_SKIP_STATUS 77
static inline int check_skip(const char *name, const char *why)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	printf("%s: skipped: %s\n", name, why);
	fflush(stdout);
	return check_failed ? 1 : CHECK_SKIP_STATUS;
}

#endif
