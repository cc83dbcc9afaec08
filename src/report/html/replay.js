// The replay viewer: puts the drawing of the step shown back together from the page's data
// (a whole step every `key` steps, splices of line numbers between), and the prompts and
// replies of that step. `#step=N` or `#step=last` picks the step.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('replay-data').textContent);
  var last = data.said.length - 1;
  var slider = document.getElementById('slider');
  var counter = document.getElementById('step');
  var board = document.getElementById('board');
  var said = document.getElementById('said');
  var end = document.getElementById('end');
  var undrawn = document.getElementById('undrawn');
  var button = document.getElementById('play');
  var timer = null;

  // A stream's list of numbers at a step: the step kept whole before it, then the splices.
  function at(stream, step) {
    var k = Math.floor(step / data.key);
    var list = stream.frames[k].slice();
    for (var s = k * data.key + 1; s <= step; s++) {
      var d = stream.deltas[s];
      for (var i = 0; i < d.length; i += 3 + d[i + 2]) {
        var come = d.slice(i + 3, i + 3 + d[i + 2]);
        list = list.slice(0, d[i]).concat(come, list.slice(d[i] + d[i + 1]));
      }
    }
    return list;
  }

  // A drawing line: its template with the numbers put back.
  var holes = data.templates.map(function (t) { return t.split('\u0001'); });
  function line(n) {
    var kept = data.lines[n], parts = holes[kept[0]], out = parts[0];
    for (var i = 1; i < parts.length; i++) {
      out += kept[i] + parts[i];
    }
    return out;
  }

  function text(numbers) {
    return numbers.map(function (n) { return data.texts[n]; }).join('\n');
  }

  // One prompt or reply, folded when long.
  function block(title, body) {
    var details = document.createElement('details');
    var summary = document.createElement('summary');
    var lines = body.split('\n').length;
    summary.textContent = title + ' (' + lines + (lines === 1 ? ' line)' : ' lines)');
    var pre = document.createElement('pre');
    pre.textContent = body;
    details.open = lines <= 20;
    details.appendChild(summary);
    details.appendChild(pre);
    return details;
  }

  function show(step) {
    step = Math.max(0, Math.min(last, step));
    slider.value = String(step);
    counter.textContent = 'step ' + step + ' / ' + last;
    board.innerHTML = at(data.board, step).map(line).join('');
    var why = data.undrawn.filter(function (u) { return u[0] === step; })[0];
    undrawn.hidden = !why;
    undrawn.textContent = why ? 'No drawing of this step: ' + why[1] : '';
    said.textContent = '';
    data.said[step].forEach(function (s) {
      said.appendChild(block('player ' + s[0] + ' prompt', text(at(data.prompts[s[0]], step))));
      said.appendChild(block('player ' + s[0] + ' reply', s[1] === null ? '(no reply)' : text(s[1])));
    });
    end.hidden = step !== last;
    end.textContent = 'end: ' + document.getElementById('outcome').textContent;
    document.querySelectorAll('article.departure').forEach(function (a) {
      a.hidden = Number(a.getAttribute('data-step')) !== step;
    });
    document.querySelectorAll('li[data-departure]').forEach(function (li) {
      li.classList.toggle('current', Number(li.getAttribute('data-departure')) === step);
    });
    if (history.replaceState) {
      history.replaceState(null, '', '#step=' + step);
    }
  }

  function fromHash() {
    var m = /^#step=(last|\d+)$/.exec(location.hash);
    if (m) {
      show(m[1] === 'last' ? last : Number(m[1]));
    }
    return m !== null;
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    button.textContent = 'play';
  }

  function toggle() {
    if (timer !== null) {
      pause();
      return;
    }
    if (Number(slider.value) >= last) {
      show(0);
    }
    button.textContent = 'pause';
    timer = setInterval(function () {
      var next = Number(slider.value) + 1;
      show(next);
      if (next >= last) {
        pause();
      }
    }, 150);
  }

  slider.addEventListener('input', function () { show(Number(slider.value)); });
  button.addEventListener('click', toggle);
  document.addEventListener('keydown', function (e) {
    if (e.target === slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      return; // the slider moves itself and says so by `input`
    }
    if (e.key === 'ArrowLeft') {
      show(Number(slider.value) - 1);
    } else if (e.key === 'ArrowRight') {
      show(Number(slider.value) + 1);
    } else if (e.key === ' ' && e.target.tagName !== 'BUTTON') {
      toggle();
    } else {
      return;
    }
    e.preventDefault();
  });
  window.addEventListener('hashchange', fromHash);
  if (!fromHash()) {
    show(0);
  }
}());
