// The day board keeps itself current: its fragment is polled every 5 s with If-None-Match, and the buttons of
// the new cards are bound again.
import { bindApiButtons, poll } from "./console.js";

const board = document.getElementById("board");
if (board?.dataset.poll) {
  poll(board.dataset.poll, 5, (html) => {
    board.innerHTML = html;
    bindApiButtons(board);
  }, board.dataset.etag);
}
