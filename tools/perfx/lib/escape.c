// SPDX-License-Identifier: GPL-2.0
/* how outside strings are written to terminals, JSON and CSV. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

static bool is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static void put_ctrl_escaped(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (is_ctrl(c))
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void escape__fputs_ctrl(FILE *f, const char *s)
{
	put_ctrl_escaped(f, s, strlen(s));
}

int escape__vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char *msg;
	int len;

	len = vasprintf(&msg, fmt, ap);
	if (len < 0)
		return fputs(fmt, f) < 0 ? -1 : 0;	/* the message unformatted, at least */
	if (len && msg[len - 1] == '\n') {
		put_ctrl_escaped(f, msg, len - 1);
		fputc('\n', f);
	} else {
		put_ctrl_escaped(f, msg, len);
	}
	free(msg);
	return len;
}

int escape__fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = escape__vfprintf(f, fmt, ap);
	va_end(ap);
	return ret;
}

/* the length of the valid UTF-8 sequence at @s, 0 if there is none */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void escape__fputs_json(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p, f);
		} else if (n == 1 && !is_ctrl(*p)) {
			fputc(*p, f);
		} else if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
			continue;
		} else {
			/* a control character, or a byte that is not UTF-8: as U+00XX */
			fprintf(f, "\\u%04x", *p);
		}
		p++;
	}
}

void escape__fputs_csv(FILE *f, const char *s, const char *sep)
{
	const char *p;
	bool quote = *sep && strstr(s, sep);

	for (p = s; *p && !quote; p++)
		quote = *p == '"' || is_ctrl(*p);
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		if (is_ctrl(*p))
			fprintf(f, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}
