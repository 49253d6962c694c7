/* json_min.c - see json_min.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_min.h"

struct parser {
	const char *s, *end;
	char *err;
	size_t errlen;
	int failed;
};

static void perr(struct parser *p, const char *what)
{
	if (!p->failed && p->err && p->errlen)
		snprintf(p->err, p->errlen, "JSON: %s at offset %ld", what, (long)(p->end - p->s));
	p->failed = 1;
}

static void ws(struct parser *p, const char **c)
{
	while (*c < p->end && (**c == ' ' || **c == '\t' || **c == '\n' || **c == '\r'))
		(*c)++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse a string at *c (which points at '"'); returns a malloc'd copy. */
static char *pstring(struct parser *p, const char **c)
{
	if (*c >= p->end || **c != '"') {
		perr(p, "expected a string");
		return NULL;
	}
	(*c)++;
	size_t cap = 32, n = 0;
	char *out = malloc(cap);
	if (!out)
		abort();
	while (*c < p->end && **c != '"') {
		char ch = **c;
		if (ch == '\\') {
			(*c)++;
			if (*c >= p->end)
				break;
			switch (**c) {
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'r': ch = '\r'; break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'u': {
				int v = 0;
				for (int i = 1; i <= 4; i++) {
					int h = *c + i < p->end ? hexval((*c)[i]) : -1;
					if (h < 0) {
						perr(p, "bad \\u escape");
						free(out);
						return NULL;
					}
					v = v * 16 + h;
				}
				*c += 4;
				ch = v < 128 ? (char)v : '?';
				break;
			}
			default: ch = **c; break;   /* \" \\ \/ */
			}
		}
		if (n + 2 > cap) {
			cap *= 2;
			out = realloc(out, cap);
			if (!out)
				abort();
		}
		out[n++] = ch;
		(*c)++;
	}
	if (*c >= p->end) {
		perr(p, "unterminated string");
		free(out);
		return NULL;
	}
	(*c)++;
	out[n] = 0;
	return out;
}

/* Skip any value; if want_text, return scalars as text (strings decoded). */
static char *pvalue(struct parser *p, const char **c, int want_text)
{
	ws(p, c);
	if (*c >= p->end) {
		perr(p, "unexpected end");
		return NULL;
	}
	if (**c == '"') {
		char *s = pstring(p, c);
		if (!want_text) {
			free(s);
			return NULL;
		}
		return s;
	}
	if (**c == '{' || **c == '[') {
		char open = **c, close = open == '{' ? '}' : ']';
		(*c)++;
		ws(p, c);
		if (*c < p->end && **c == close) {
			(*c)++;
			return NULL;
		}
		for (;;) {
			if (open == '{') {
				ws(p, c);
				free(pstring(p, c));
				ws(p, c);
				if (*c >= p->end || **c != ':') {
					perr(p, "expected ':'");
					return NULL;
				}
				(*c)++;
			}
			pvalue(p, c, 0);
			if (p->failed)
				return NULL;
			ws(p, c);
			if (*c < p->end && **c == ',') {
				(*c)++;
				continue;
			}
			if (*c < p->end && **c == close) {
				(*c)++;
				return NULL;
			}
			perr(p, "expected ',' or a closing bracket");
			return NULL;
		}
	}
	const char *start = *c;
	while (*c < p->end && **c != ',' && **c != '}' && **c != ']' && **c != ' ' &&
	       **c != '\n' && **c != '\r' && **c != '\t')
		(*c)++;
	if (*c == start) {
		perr(p, "unexpected character");
		return NULL;
	}
	if (!want_text)
		return NULL;
	size_t n = (size_t)(*c - start);
	char *s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, start, n);
	s[n] = 0;
	return s;
}

static int precord(struct parser *p, const char **c, struct json_rec *r)
{
	memset(r, 0, sizeof(*r));
	ws(p, c);
	if (*c >= p->end || **c != '{') {
		perr(p, "expected an object in the array");
		return -1;
	}
	(*c)++;
	ws(p, c);
	if (*c < p->end && **c == '}') {
		(*c)++;
		return 0;
	}
	int cap = 0;
	for (;;) {
		ws(p, c);
		char *k = pstring(p, c);
		if (!k)
			return -1;
		ws(p, c);
		if (*c >= p->end || **c != ':') {
			free(k);
			perr(p, "expected ':'");
			return -1;
		}
		(*c)++;
		ws(p, c);
		int nested = *c < p->end && (**c == '{' || **c == '[');
		char *v = pvalue(p, c, 1);
		if (p->failed) {
			free(k);
			free(v);
			return -1;
		}
		if (nested || !v) {
			free(k);
			free(v);
		} else {
			if (r->nkv == cap) {
				cap = cap ? cap * 2 : 16;
				r->kv = realloc(r->kv, (size_t)cap * sizeof(*r->kv));
				if (!r->kv)
					abort();
			}
			r->kv[r->nkv].key = k;
			r->kv[r->nkv++].val = v;
		}
		ws(p, c);
		if (*c < p->end && **c == ',') {
			(*c)++;
			continue;
		}
		if (*c < p->end && **c == '}') {
			(*c)++;
			return 0;
		}
		perr(p, "expected ',' or '}'");
		return -1;
	}
}

static int parray(struct parser *p, const char **c, struct json_doc *doc)
{
	ws(p, c);
	if (*c >= p->end || **c != '[') {
		perr(p, "expected an array");
		return -1;
	}
	(*c)++;
	ws(p, c);
	if (*c < p->end && **c == ']') {
		(*c)++;
		return 0;
	}
	int cap = 0;
	for (;;) {
		if (doc->nrecs == cap) {
			cap = cap ? cap * 2 : 256;
			doc->recs = realloc(doc->recs, (size_t)cap * sizeof(*doc->recs));
			if (!doc->recs)
				abort();
		}
		if (precord(p, c, &doc->recs[doc->nrecs]))
			return -1;
		doc->nrecs++;
		ws(p, c);
		if (*c < p->end && **c == ',') {
			(*c)++;
			continue;
		}
		if (*c < p->end && **c == ']') {
			(*c)++;
			return 0;
		}
		perr(p, "expected ',' or ']'");
		return -1;
	}
}

int json_load(const char *path, const char *key, struct json_doc *doc, char *err, size_t errlen)
{
	memset(doc, 0, sizeof(*doc));
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s", path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc(sz > 0 ? (size_t)sz : 1);
	if (!buf)
		abort();
	size_t got = fread(buf, 1, (size_t)(sz > 0 ? sz : 0), f);
	fclose(f);
	struct parser p = { buf, buf + got, err, errlen, 0 };
	const char *c = buf;
	int rc = -1;

	ws(&p, &c);
	if (!key) {
		rc = parray(&p, &c, doc);
	} else if (c < p.end && *c == '{') {
		c++;
		for (;;) {
			ws(&p, &c);
			char *k = pstring(&p, &c);
			if (!k)
				break;
			ws(&p, &c);
			if (c >= p.end || *c != ':') {
				free(k);
				perr(&p, "expected ':'");
				break;
			}
			c++;
			int match = !strcmp(k, key);
			free(k);
			if (match) {
				rc = parray(&p, &c, doc);
				break;
			}
			pvalue(&p, &c, 0);
			if (p.failed)
				break;
			ws(&p, &c);
			if (c < p.end && *c == ',') {
				c++;
				continue;
			}
			perr(&p, "key not found");
			break;
		}
	} else {
		perr(&p, "expected an object");
	}
	free(buf);
	if (rc)
		json_free(doc);
	return rc;
}

void json_free(struct json_doc *doc)
{
	for (int i = 0; i < doc->nrecs; i++) {
		for (int k = 0; k < doc->recs[i].nkv; k++) {
			free(doc->recs[i].kv[k].key);
			free(doc->recs[i].kv[k].val);
		}
		free(doc->recs[i].kv);
	}
	free(doc->recs);
	memset(doc, 0, sizeof(*doc));
}

const char *json_get(const struct json_rec *r, const char *key)
{
	for (int i = 0; i < r->nkv; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}
