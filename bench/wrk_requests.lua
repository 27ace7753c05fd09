-- wrk script of bench/run: replays the requests of a generated file (one per line, tab-separated:
-- METHOD, path, header lines joined by "\r", body) and reports per-status counts in a parseable line.
--
-- Environment: BENCH_REQUESTS (the file), BENCH_OFFSET (first request index, default 0), BENCH_DISTINCT ("1": every
-- index is used at most once across all threads; past the end the requests wrap around and are counted as `wrapped`).
-- Thread t of n sends the indexes offset+t, offset+t+n, offset+t+2n, ... (wrk threads have separate Lua states).

local threads = {}

function setup(thread)
   thread:set("tid", #threads)
   table.insert(threads, thread)
end

function init(args)
   -- `threads` lives in the main Lua state; each thread learns the count from the environment.
   nthreads = tonumber(os.getenv("BENCH_THREADS") or "1")
   local offset = tonumber(os.getenv("BENCH_OFFSET") or "0")
   reqs = {}
   for line in io.lines(os.getenv("BENCH_REQUESTS")) do
      local method, path, headers, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      local h = {}
      for header in headers:gmatch("[^\r]+") do
         local name, value = header:match("^([^:]+):%s*(.*)$")
         h[name] = value
      end
      if body == "" then body = nil end
      table.insert(reqs, {method, path, h, body})
   end
   index = offset + tid
   max_index = -1
   wrapped = 0
   statuses = {}
end

function request()
   local n = #reqs
   local r = reqs[(index % n) + 1]
   if index >= n then wrapped = wrapped + 1 end
   if index > max_index then max_index = index end
   index = index + nthreads
   return wrk.format(r[1], r[2], r[3], r[4])
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
   local counts = {}
   local wraps, maxi = 0, -1
   for _, thread in ipairs(threads) do
      local s = thread:get("statuses")
      for status, count in pairs(s) do counts[status] = (counts[status] or 0) + count end
      wraps = wraps + thread:get("wrapped")
      local m = thread:get("max_index")
      if m > maxi then maxi = m end
   end
   local parts = {}
   for status, count in pairs(counts) do table.insert(parts, status .. ":" .. count) end
   io.write(string.format(
      "BENCH requests=%d duration_us=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d connect_errors=%d read_errors=%d write_errors=%d timeouts=%d wrapped=%d max_index=%d statuses=%s\n",
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
      latency.max, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
      wraps, maxi, table.concat(parts, ",")))
end
