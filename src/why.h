/* why.h - write a one-line reason into a caller's buffer. */
#ifndef PMON_WHY_H
#define PMON_WHY_H

#include <stddef.h>

/* Room for one reason (a caller's buffer). */
#define PMON_WHY_LEN 256

/* Format the message into buf (if buf and len are non-zero) and return code,
 * so that error paths read: return pmon_why(why, whylen, PMON_ENODEV, "..."). */
int pmon_why(char *buf, size_t len, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Append the message to the text in buf (after sep when buf is not empty);
 * a message that does not fit ends in "...".  buf NULL or len 0: nothing. */
void pmon_why_add(char *buf, size_t len, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
