// A lesson's questions, answered in the page: the reply to the chosen answer, each answer kept in
// the browser's local storage, and how many of the page's questions were answered correctly.
"use strict";

const STORE = "ffn-course:question:";

function remembered(key) {
  try {
    return JSON.parse(localStorage.getItem(STORE + key));
  } catch (error) {
    return null; // storage off (a private window): the page still answers, it just forgets
  }
}

function remember(key, answer) {
  try {
    localStorage.setItem(STORE + key, JSON.stringify(answer));
  } catch (error) {
    /* storage off: nothing to keep */
  }
}

function showProgress(forms) {
  const progress = document.querySelector(".quiz-progress");
  if (!progress) return;
  const right = forms.filter((form) => (remembered(form.dataset.question) || {}).correct).length;
  progress.textContent = progress.dataset.template
    .replace("{right}", String(right))
    .replace("{total}", String(forms.length));
  progress.dataset.right = String(right);
}

// A predict question's result stays hidden until the reader answers it (or asks to see it).
function reveal(key) {
  document.querySelectorAll(`.reveal-after[data-question="${key}"]`).forEach((box) => {
    box.classList.remove("waiting");
    box.querySelector(".reveal-note").hidden = true;
  });
}

function hideUntilAnswered() {
  const noted = new Set(); // one note per question, above the first of its results
  document.querySelectorAll(".reveal-after").forEach((box) => {
    const key = box.dataset.question;
    if (remembered(key)) return;
    box.classList.add("waiting");
    if (noted.has(key)) return;
    noted.add(key);
    const note = box.querySelector(".reveal-note");
    note.hidden = false;
    note.querySelector("button").addEventListener("click", () => reveal(key));
  });
}

function setUpQuestion(form, forms) {
  const data = JSON.parse(form.querySelector("script.question-data").textContent);
  const reply = form.querySelector(".question-reply");
  function answer(choice) {
    const correct = choice === data.answer;
    reply.textContent = `${correct ? "✔" : "✘"} ${data.replies[choice]}`;
    form.dataset.result = correct ? "right" : "wrong";
    return correct;
  }
  const earlier = remembered(form.dataset.question);
  if (earlier && Number.isInteger(earlier.choice)) {
    const input = form.querySelector(`input[value="${earlier.choice}"]`);
    if (input) {
      input.checked = true;
      answer(earlier.choice);
    }
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = form.querySelector("input[type=radio]:checked");
    if (!picked) return;
    const choice = Number(picked.value);
    remember(form.dataset.question, { choice, correct: answer(choice) });
    showProgress(forms);
    reveal(form.dataset.question);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const forms = [...document.querySelectorAll("form.site-question")];
  hideUntilAnswered();
  forms.forEach((form) => setUpQuestion(form, forms));
  showProgress(forms);
  document.documentElement.dataset.questionsReady = "true";
});
