// Writes a consumer app's report into the page: one <li> per item, the JSON report in #result,
// and #result[data-state] "done" or "failed" for the test to wait on.

export function show(report) {
  const list = document.getElementById("items");
  for (const id of report.identities) {
    const li = document.createElement("li");
    li.textContent = id;
    list.append(li);
  }
  const out = document.getElementById("result");
  out.textContent = JSON.stringify(report);
  out.dataset.state = "done";
}

export function fail(error) {
  const out = document.getElementById("result");
  out.textContent = String((error && error.stack) || error);
  out.dataset.state = "failed";
  console.error(error);
}
