# Shared by the print tests: a private cupsd (its own config, spool, socket in
# $TEST_TMP/cups) with a cups-pdf queue writing into $CUPS_PDF_OUT. Needs root, as
# cupsd and the cups-pdf backend do; skips otherwise. CUPS_SERVER is exported, so
# cordon started after cups_start talks to this cupsd and to no other.

# cups_start [QUEUE]: starts cupsd and adds the cups-pdf queue (default "PDF").
cups_start() {
	local queue=${1:-PDF} dir=$TEST_TMP/cups
	((EUID == 0)) || skip "cupsd and the cups-pdf backend need root"
	command -v cupsd >/dev/null || skip "no cupsd (apt-get install cups)"
	[[ -x /usr/lib/cups/backend/cups-pdf ]] || skip "no cups-pdf (printer-driver-cups-pdf)"
	mkdir -p "$dir"/{etc/ppd,spool/tmp,cache,state,log,out,pdf-spool}
	# cupsd's filters run as lp: they must get through $TEST_TMP (not list it).
	chmod 0711 "$TEST_TMP"
	chmod 0755 "$dir" "$dir/out"
	chmod 1777 "$dir/spool/tmp" "$dir/pdf-spool"
	CUPS_SOCKET=$dir/cups.sock
	CUPS_PDF_OUT=$dir/out
	cat >"$dir/etc/cups-files.conf" <<-CONF
		ServerRoot $dir/etc
		RequestRoot $dir/spool
		TempDir $dir/spool/tmp
		CacheDir $dir/cache
		StateDir $dir/state
		ErrorLog $dir/log/error_log
		AccessLog $dir/log/access_log
		PageLog $dir/log/page_log
		Printcap $dir/state/printcap
		ServerBin /usr/lib/cups
		DataDir /usr/share/cups
		User lp
		Group lp
		SystemGroup root
	CONF
	cat >"$dir/etc/cupsd.conf" <<-CONF
		Listen $CUPS_SOCKET
		LogLevel debug
		Browsing No
		WebInterface No
		DefaultAuthType None
		<Location />
		  Order allow,deny
		  Allow all
		</Location>
		<Policy default>
		  <Limit All>
		    Order deny,allow
		    Allow all
		  </Limit>
		</Policy>
	CONF
	# cups-pdf reads /etc/cups/cups-pdf-NAME.conf for the device URI cups-pdf:/NAME: a
	# name of this run's own, removed at teardown.
	CUPS_PDF_CONF=/etc/cups/cups-pdf-cordon-test-$$.conf
	cat >"$CUPS_PDF_CONF" <<-CONF
		Out $CUPS_PDF_OUT
		AnonDirName $CUPS_PDF_OUT
		Spool $dir/pdf-spool
		UserUMask 0022
		Label 2
		Grp root
		Log $dir/log
		LogType 7
	CONF
	on_teardown cups_stop
	cupsd -f -c "$dir/etc/cupsd.conf" -s "$dir/etc/cups-files.conf" \
		>"$dir/log/cupsd.out" 2>&1 &
	CUPSD_PID=$!
	export CUPS_SERVER=$CUPS_SOCKET
	wait_for "cupsd listens on $CUPS_SOCKET" test -S "$CUPS_SOCKET"
	wait_for "cupsd answers" cups_running
	# cups-pdf 3 reads the PPD's options after its config file: the job-id label (how the
	# tests find a job's PDF) is set on the queue too.
	lpadmin -p "$queue" -E -v "cups-pdf:/cordon-test-$$" \
		-P /usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd -o Label=2 ||
		fail "lpadmin could not add the cups-pdf queue ($dir/log/error_log)"
	lpadmin -d "$queue" || fail "lpadmin could not make $queue the default"
}

cups_running() {
	[[ "$(lpstat -r 2>&1)" == "scheduler is running" ]]
}

cups_stop() {
	if [[ -n "${CUPSD_PID:-}" ]]; then
		kill "$CUPSD_PID" 2>/dev/null || true
		wait "$CUPSD_PID" 2>/dev/null || true
		CUPSD_PID=
	fi
	rm -f "${CUPS_PDF_CONF:-}"
}

# cups_pdfs: the PDFs cups-pdf wrote so far, one per line.
cups_pdfs() {
	find "$CUPS_PDF_OUT" -name '*.pdf' -type f | sort
}
