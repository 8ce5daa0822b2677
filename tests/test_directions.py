"""A directional compound of a topic ("text-to-image", "speech-to-speech") is stated in its
direction: a paper about another direction that shares its words ("Text-To-Audio Generation",
"image-to-text") is not listed (:func:`rag.lexicon.other_direction`,
:meth:`rag.route.answer.AnswerPipeline._other_direction`). Phrasings and papers here are not in the
eval files."""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.lexicon import directions, other_direction
from rag.question.plan import AskPlan
from rag.question.reader import Reader


def test_directions_are_read_as_source_and_target_keys_in_any_case():
    text = "Unlike Text-To-Video and text-to-image models, our X-to-3D model is trained end-to-end."
    assert directions(text) == (("text", "video"), ("text", "imag"), ("x", "3d"), ("end", "end"))
    assert directions("speech translation from scratch") == ()


@pytest.mark.parametrize(
    ("compound", "phrase", "texts", "other"),
    [
        # another target, another source, the reverse: another direction
        (("text", "imag"), "text-to-image", ["SoundCraft: Text-to-Audio Generation"], True),
        (("text", "imag"), "text-to-image", ["", "We caption photos: image-to-text generation."], True),
        (("text", "imag"), "text-to-image", ["", "We translate sketches with image-to-image diffusion."], True),
        (("speech", "speech"), "speech-to-speech", ["", "A speech-to-text translation model."], True),
        # the compound asked, in any case, or one of the glossary's names of it
        (("text", "imag"), "text-to-image", ["PixGen: Text-To-Image Generation"], False),
        (("text", "speech"), "text-to-speech", ["", "Unlike speech-to-text, speech synthesis needs prosody."], False),
        (("text", "speech"), "text-to-speech", ["FastVoice: TTS for everyone", "It reads speech-to-text logs."], False),
        # no directional compound, or one that shares no word: nothing to judge by
        (("text", "imag"), "text-to-image", ["", "We generate pictures from captions."], False),
        (("text", "imag"), "text-to-image", ["", "An end-to-end sequence-to-sequence model."], False),
    ],
)
def test_a_paper_about_another_direction_is_told_apart(compound, phrase, texts, other):
    assert other_direction(compound, phrase, texts) is other


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("any work on text-to-image generation?", ("text-to-image",)),
        ("papers doing Speech-to-Text translation", ("Speech-to-Text",)),
        # an alternative that does not write it: a paper on it may write another direction
        ("which papers do text-to-image generation or image editing?", ()),
        ("Which papers train end-to-end speech recognizers?", ("end-to-end",)),
        ("Which papers work on speech synthesis?", ()),
    ],
)
def test_the_reader_puts_the_topic_directions_on_the_topic(question, found):
    plan = Reader(Catalogue([])).read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.directions == found


T2I = {
    "id": "t2i",
    "title": "PixGen: Text-To-Image Generation with Cascaded Diffusion",
    "abstract": "Generating pictures from prompts is hard. We present PixGen, a text-to-image diffusion model "
    "that generates high-resolution images from text prompts. PixGen improves FID on COCO.",
}
T2A = {
    "id": "t2a",
    "title": "SoundCraft: Text-To-Audio Generation with Latent Diffusion",
    "abstract": "Text-to-image generation has advanced quickly, but audio lags behind. We present SoundCraft, "
    "which generates sound effects and audio clips from text prompts with a latent diffusion model. "
    "SoundCraft improves FAD on AudioCaps.",
}
I2T = {
    "id": "i2t",
    "title": "CapFormer: Captioning Images with Frozen Language Models",
    "abstract": "Describing images in words is useful. We present CapFormer, an image-to-text generation model "
    "that writes captions for images with a frozen language model. CapFormer improves CIDEr on COCO.",
}
OTHER = {
    "id": "graphs",
    "title": "MolGT",
    "abstract": "Molecules are graphs. We propose MolGT, graph transformers for molecular property prediction.",
}


@pytest.mark.slow
def test_which_papers_do_text_to_image_lists_neither_text_to_audio_nor_image_to_text(tmp_path, embedder):
    from tests.conftest import pipeline_of

    pipeline = pipeline_of(tmp_path, [T2I, T2A, I2T, OTHER], embedder)
    for question in ("any work on text-to-image generation?", "Which papers do text-to-image synthesis?"):
        answer = pipeline.ask(question)
        assert [c.paper_id for c in answer.citations] == ["t2i"], answer.text
    # without the compound, the words alone decide, as before: the audio paper is not told apart
    answer = pipeline.ask("Which papers generate audio from text prompts?")
    assert "t2a" in {c.paper_id for c in answer.citations}, answer.text
