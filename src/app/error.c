/* The one way a command says what went wrong. */
#include <stdarg.h>
#include <stdio.h>

#include "app/app.h"
#include "render/draw.h"

/* Print "pescope: <message>" to standard error, with control characters
 * escaped: a message may quote an argument or a preset line. */
void
pe_app_error(const char *fmt, ...)
{
	char msg[2048], safe[4 * sizeof msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "pescope: %s\n",
	    pe_text_escape(msg, safe, sizeof safe));
}
