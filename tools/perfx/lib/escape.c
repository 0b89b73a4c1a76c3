// SPDX-License-Identifier: GPL-2.0
/* how outside strings are written to terminals, JSON and CSV. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/*
 * One conversion, @spec (from '%' to its conversion character, with
 * "*" widths taken from @ap first), formatted alone: its argument's type
 * follows its length modifier and conversion as printf's does.
 */
static int format_one(char **out, const char *spec, va_list *ap)
{
	char conv = spec[strlen(spec) - 1];
	const char *mod = spec + strcspn(spec, "hljztL");
	int stars = 0, w[2] = { 0, 0 }, ret;
	const char *p;

	for (p = spec; *p; p++)
		stars += *p == '*';
	if (stars > 2)
		return -1;
	for (ret = 0; ret < stars; ret++)
		w[ret] = va_arg(*ap, int);
#define FMT(type) (stars == 2 ? asprintf(out, spec, w[0], w[1], va_arg(*ap, type)) : \
		   stars == 1 ? asprintf(out, spec, w[0], va_arg(*ap, type)) :	   \
		   asprintf(out, spec, va_arg(*ap, type)))
	switch (conv) {
	case 's':
		return FMT(const char *);
	case 'p':
		return FMT(void *);
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		return *mod == 'L' ? FMT(long double) : FMT(double);
	case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
		if (!strncmp(mod, "ll", 2))
			return FMT(long long);
		if (*mod == 'l')
			return FMT(long);
		if (*mod == 'z')
			return FMT(size_t);
		if (*mod == 'j')
			return FMT(intmax_t);
		if (*mod == 't')
			return FMT(ptrdiff_t);
		return FMT(int);
	}
#undef FMT
	return -1;
}

/*
 * The format's own text is the message's: its newlines print as they
 * are.  What a conversion brings in may come from outside, and has its
 * control characters written as \xNN.
 */
int escape__vfprintf(FILE *f, const char *fmt, va_list ap)
{
	size_t lit, len, total = 0;
	char spec[32], *val;
	va_list aq;
	int n;

	va_copy(aq, ap);
	while (*fmt) {
		lit = strcspn(fmt, "%");
		fwrite(fmt, 1, lit, f);
		total += lit;
		fmt += lit;
		if (!*fmt)
			break;
		if (fmt[1] == '%') {
			fputc('%', f);
			total++;
			fmt += 2;
			continue;
		}
		len = 1 + strspn(fmt + 1, "#0- +'123456789.*hljztL");
		if (!fmt[len] || len + 2 > sizeof(spec)) {
			fputs(fmt, f);	/* no conversion a printf knows: as it is */
			break;
		}
		memcpy(spec, fmt, len + 1);
		spec[len + 1] = '\0';
		fmt += len + 1;
		n = format_one(&val, spec, &aq);
		if (n < 0) {
			fputs(spec, f);
			continue;
		}
		put_ctrl_escaped(f, val, n);
		total += n;
		free(val);
	}
	va_end(aq);
	return total;
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

size_t escape__utf8_len(const unsigned char *s)
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
		size_t n = escape__utf8_len(p);

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
