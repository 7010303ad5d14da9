# Installing scaleaudit, and its Debian package (included by the Makefile).
#   make install   [PREFIX=/usr/local] [DESTDIR=]  the binary, man pages, completion, docs
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]  removes exactly what install put there
#   make deb       builds the .deb into build/deb/ (dpkg-buildpackage, debhelper)
# scaleaudit-gen (the generator of the example trials with known answers) is a
# developer's tool and is not installed. Man pages are installed as they are;
# the Debian package compresses them with gzip -9n, as policy asks.

PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/scaleaudit
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
INSTALL     ?= install

# Every page under man/, by section, as they are written. The docs keep the
# tree's layout (README.md, docs/, docs/img/), so that their links still lead
# somewhere.
MAN1     := $(sort $(wildcard man/*.1))
MAN5     := $(sort $(wildcard man/*.5))
DOCS     := $(sort $(wildcard docs/*.md docs/*.json))
DOCIMG   := $(sort $(wildcard docs/img/*.png))

# INSTALL_BIN: the binary to install (a test installs the one it tests).
INSTALL_BIN ?= $(BIN)

.PHONY: install uninstall deb
install: $(INSTALL_BIN)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)/docs/img \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/scaleaudit
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(if $(MAN5),$(INSTALL) -d $(DESTDIR)$(MANDIR)/man5)
	$(if $(MAN5),$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(INSTALL) -m 644 completion/scaleaudit.bash $(DESTDIR)$(BASHCOMPDIR)/scaleaudit
	$(INSTALL) -m 644 completion/_scaleaudit $(DESTDIR)$(ZSHCOMPDIR)/_scaleaudit
	$(INSTALL) -m 644 README.md $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs/
	$(if $(DOCIMG),$(INSTALL) -m 644 $(DOCIMG) $(DESTDIR)$(DOCDIR)/docs/img/)

# What install wrote, and the doc folder it made; the shared folders stay.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scaleaudit \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5))) \
		$(DESTDIR)$(BASHCOMPDIR)/scaleaudit $(DESTDIR)$(ZSHCOMPDIR)/_scaleaudit \
		$(DESTDIR)$(DOCDIR)/README.md $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOCS) $(DOCIMG))
	rmdir $(DESTDIR)$(DOCDIR)/docs/img $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true

# The package is built from a copy of the source tree (the files git tracks or
# does not ignore), so that nothing of this checkout's builds goes into it;
# the .deb, .buildinfo and .changes land in build/deb/.
deb:
	$(Q)mk/deb.sh build/deb
