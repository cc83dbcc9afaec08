// The replay viewer: unpacks a match's data (JSON, gzip, base64) when the match is shown, and
// puts the drawing of the step shown back together from it (a whole step every `key` steps,
// splices of line numbers between), with the prompts and replies of that step.
// `#step=N`, `#step=last` and `#match=K&step=N` pick what is shown.
(function () {
  'use strict';
  var slider = document.getElementById('slider');
  var counter = document.getElementById('step');
  var board = document.getElementById('board');
  var said = document.getElementById('said');
  var end = document.getElementById('end');
  var undrawn = document.getElementById('undrawn');
  var unpacking = document.getElementById('unpacking');
  var picker = document.getElementById('match');
  var facts = document.getElementById('match-facts');
  var button = document.getElementById('play');
  var timer = null;
  // The match shown: its number, its data and its drawing lines' templates cut at the holes.
  var shown = null;
  // What was asked for last, kept while its match unpacks: [match, step].
  var wanted = null;

  // A match's data, unpacked from its element (a promise; rejected where the browser cannot).
  function unpack(k) {
    try {
      var text = document.getElementById('match-' + k).textContent.trim();
      var bin = atob(text);
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) {
        bytes[i] = bin.charCodeAt(i);
      }
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).json();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  // A stream's list of numbers at a step: the step kept whole before it, then the splices.
  function at(stream, step) {
    var key = shown.data.key;
    var k = Math.floor(step / key);
    var list = stream.frames[k].slice();
    for (var s = k * key + 1; s <= step; s++) {
      var d = stream.deltas[s];
      for (var i = 0; i < d.length; i += 3 + d[i + 2]) {
        var come = d.slice(i + 3, i + 3 + d[i + 2]);
        list = list.slice(0, d[i]).concat(come, list.slice(d[i] + d[i + 1]));
      }
    }
    return list;
  }

  // A drawing line: its template with the numbers put back.
  function line(n) {
    var kept = shown.data.lines[n], parts = shown.holes[kept[0]], out = parts[0];
    for (var i = 1; i < parts.length; i++) {
      out += kept[i] + parts[i];
    }
    return out;
  }

  function text(numbers) {
    return numbers.map(function (n) { return shown.data.texts[n]; }).join('\n');
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

  function last() {
    return shown.data.said.length - 1;
  }

  function show(step) {
    var data = shown.data;
    if (data.said.length === 0) {
      counter.textContent = 'no step';
      board.textContent = '';
      said.textContent = '';
      end.hidden = false;
      end.textContent = 'Nothing to replay: the log holds no step of this match that could be read.';
      return;
    }
    step = Math.max(0, Math.min(last(), step));
    slider.value = String(step);
    counter.textContent = 'step ' + step + ' / ' + last();
    board.innerHTML = at(data.board, step).map(line).join('');
    var why = data.undrawn.filter(function (u) { return u[0] === step; })[0];
    undrawn.hidden = !why;
    undrawn.textContent = why ? 'No drawing of this step: ' + why[1] : '';
    said.textContent = '';
    data.said[step].forEach(function (s) {
      said.appendChild(block('player ' + s[0] + ' prompt', text(at(data.prompts[s[0]], step))));
      said.appendChild(block('player ' + s[0] + ' reply', s[1] === null ? '(no reply)' : text(s[1])));
    });
    end.hidden = step !== last();
    end.textContent = 'end: ' + data.outcome;
    // Departures belong to a trace's one match.
    document.querySelectorAll('article.departure').forEach(function (a) {
      a.hidden = Number(a.getAttribute('data-step')) !== step;
    });
    document.querySelectorAll('li[data-departure]').forEach(function (li) {
      li.classList.toggle('current', Number(li.getAttribute('data-departure')) === step);
    });
    if (history.replaceState) {
      var place = (picker ? 'match=' + shown.k + '&' : '') + 'step=' + step;
      history.replaceState(null, '', '#' + place);
    }
  }

  // The header's rows of match `data`.
  function writeFacts(data) {
    facts.textContent = '';
    data.facts.concat([['outcome', data.outcome]]).forEach(function (f) {
      var dt = document.createElement('dt');
      var dd = document.createElement('dd');
      dt.textContent = f[0];
      dd.textContent = f[1];
      if (f[0] === 'outcome') {
        dd.id = 'outcome';
      }
      facts.appendChild(dt);
      facts.appendChild(dd);
    });
  }

  // Shows `step` (a number, or 'last') of match `k`, unpacking the match first if need be.
  function go(k, step) {
    if (shown !== null && shown.k === k) {
      show(step === 'last' ? last() : step);
      return;
    }
    pause();
    wanted = [k, step];
    unpacking.hidden = false;
    unpack(k).then(function (data) {
      if (wanted === null || wanted[0] !== k) {
        return; // another match was asked for meanwhile
      }
      shown = {
        k: k,
        data: data,
        holes: data.templates.map(function (t) { return t.split('\u0001'); })
      };
      unpacking.hidden = true;
      if (picker) {
        picker.value = String(k);
      }
      slider.max = String(Math.max(0, last()));
      writeFacts(data);
      var step = wanted[1];
      wanted = null;
      show(step === 'last' ? last() : step);
    }, function (e) {
      unpacking.textContent = 'This browser cannot unpack the replay: ' + e;
    });
  }

  function current() {
    return shown === null ? 0 : shown.k;
  }

  function fromHash() {
    var m = /^#(?:match=(\d+)&)?step=(last|\d+)$/.exec(location.hash);
    if (m === null) {
      return false;
    }
    var k = m[1] === undefined ? current() : Number(m[1]);
    if (!document.getElementById('match-' + k)) {
      return false;
    }
    go(k, m[2] === 'last' ? 'last' : Number(m[2]));
    return true;
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    button.textContent = 'play';
  }

  function toggle() {
    if (timer !== null || shown === null) {
      pause();
      return;
    }
    if (Number(slider.value) >= last()) {
      show(0);
    }
    button.textContent = 'pause';
    timer = setInterval(function () {
      var next = Number(slider.value) + 1;
      show(next);
      if (next >= last()) {
        pause();
      }
    }, 150);
  }

  slider.addEventListener('input', function () {
    if (shown !== null) {
      show(Number(slider.value));
    }
  });
  button.addEventListener('click', toggle);
  if (picker) {
    picker.addEventListener('change', function () { go(Number(picker.value), 0); });
  }
  document.addEventListener('keydown', function (e) {
    if (shown === null || e.target === picker) {
      return;
    }
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
    go(0, 0);
  }
}());
